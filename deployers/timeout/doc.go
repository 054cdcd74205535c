// Package timeout is Landscaper's progressing timeout for deploy items
// (pkg/deployer/lib/timeout in Landscaper): a deploy item must finish within
// spec.timeout (default 10 minutes), measured from
// status.transitionTimes.initTime, which the deployer framework sets when it
// picks the item up for a new job.
//
// Deployers call Check at their checkpoints with the request's virtual time;
// the first checkpoint reached at or after the deadline fails the item with
// reason ProgressingTimeout and code ERR_TIMEOUT. The error is terminal, so
// the framework moves the item to Failed (DeleteFailed when deleting).
//
// The package is a leaf (it imports no deployer), so the deployer framework
// can use the same check generically. Checking in both places is harmless:
// both compute the same deadline from the same item and return the same
// reason and code; whichever runs first at or after the deadline fails the
// item, and the other never sees it again because the job is finished.
//
// Deviation from Landscaper: spec.timeout "none" (or 0) disables the timeout.
// Landscaper decodes "none" to a zero duration and its checker then treats
// the item as expired at once.
package timeout
