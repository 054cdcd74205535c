// Package reconcile is the contract between lscli's run loop and everything it
// runs: the controllers of package engine and the deployers of package
// deployers both import it, and it imports neither. It plays the part of
// controller-runtime's pkg/reconcile plus a single-threaded work queue.
//
// # Contract
//
// A Reconciler brings one object, named by its key, closer to what it should
// be and returns a Result: done until the next change, a timer
// (RequeueAfter, with Deadline when the reconciler will act at that time, or
// Scheduled for planned work such as an automatic reconcile), or a normal
// error, which is retried with growing intervals (RetryInterval).
// AsReconciler reads the object once, so a reconciler never repeats the Get
// and NotFound handling.
//
// # Errors
//
// Error is Landscaper's error model: operation, reason, message and codes,
// wrapping the error that caused it. LastError and UpdatedError make the
// status.lastError of an object from it with Landscaper's rules, and
// SetDeployItemError keeps a deploy item's firstError and lastErrors.
// An error whose text in a status is not its Error() text (lscli's words
// for render and validate, Landscaper's in the status) is a StatusTexter;
// Wrap, Error and LastError use its StatusText wherever it sits in the
// chain (see StatusText), so no controller has to translate it.
// Fatal (and TerminalError) marks an error that ends a flow: the
// installation and execution controllers go to Failed on it; the deployer
// framework decides by codes instead (IsUnrecoverable).
//
// # Time and randomness
//
// VirtualClock never moves by itself and Random is seeded (job IDs, the order
// of ready work); both are injected, so the same input gives the same output.
//
// # Run loop
//
// Loop holds the queue of ready work and timers and runs one reconcile at a
// time. When no work is ready it moves the clock to the next timer. It stops
// when no work and no timers are left, when only re-polls that change nothing
// are left (a fixed point), or at the bounds of RunOptions. Timers and
// RestoreTimers let the saved state carry pending work from one command to the
// next.
package reconcile
