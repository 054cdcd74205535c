package timeout

import (
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/reconcile"
)

// Default is the progressing timeout of a deploy item without spec.timeout.
const Default = 10 * time.Minute

// Deadline returns when item's progressing timeout expires: initTime plus
// spec.timeout (Default when unset). ok is false when no timeout applies:
// spec.timeout is "none" or zero, or the item was not picked up yet (no
// status.transitionTimes.initTime).
func Deadline(item *lsv1alpha1.DeployItem) (deadline time.Time, ok bool) {
	tt := item.Status.TransitionTimes
	if tt == nil || tt.InitTime == nil {
		return time.Time{}, false
	}
	d := Default
	if item.Spec.Timeout != nil {
		d = item.Spec.Timeout.Duration
	}
	if d <= 0 {
		return time.Time{}, false
	}
	return tt.InitTime.Add(d), true
}

// Check returns the time left until item's deadline at now. At or after the
// deadline it returns Error(checkpoint). Without a deadline (see Deadline)
// the time left is zero and the error nil; callers treat zero as "unbounded".
func Check(item *lsv1alpha1.DeployItem, now time.Time, checkpoint string) (time.Duration, error) {
	deadline, ok := Deadline(item)
	if !ok {
		return 0, nil
	}
	if !now.Before(deadline) {
		return 0, Error(checkpoint)
	}
	return deadline.Sub(now), nil
}

// Operation is the operation of a progressing-timeout error in
// status.lastError, as Landscaper's timeout checker names it.
const Operation = "StandardTimeoutChecker.TimeoutExceeded"

// Error is the progressing-timeout error Landscaper reports at checkpoint:
// operation Operation, reason ProgressingTimeout, message
// `timeout at: "<checkpoint>"`, and codes (ERR_TIMEOUT when none are given),
// which fail the deploy item.
func Error(checkpoint string, codes ...lsv1alpha1.ErrorCode) error {
	if len(codes) == 0 {
		codes = []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}
	}
	return reconcile.NewError(Operation, lsv1alpha1.ProgressingTimeoutReason, fmt.Sprintf("timeout at: %q", checkpoint), codes...)
}

// StartCheckpoint is the checkpoint at which Landscaper's deployer of typ
// checks the timeout first in a reconcile (op "reconcile") or delete (op
// "delete"), e.g. "helm deployer: start reconcile".
func StartCheckpoint(typ lsv1alpha1.DeployItemType, op string) string {
	name := string(typ)
	switch typ {
	case "landscaper.gardener.cloud/helm":
		name = "helm"
	case "landscaper.gardener.cloud/kubernetes-manifest":
		name = "manifest"
	case "landscaper.gardener.cloud/container":
		name = "container"
	}
	return fmt.Sprintf("%s deployer: start %s", name, op)
}

// Poll returns how long to wait before the next poll: interval, or the time
// left when that is shorter, so that the call at the deadline fails the item
// at exactly the deadline. left is Check's result; zero means unbounded.
func Poll(interval, left time.Duration) time.Duration {
	if left > 0 && left < interval {
		return left
	}
	return interval
}
