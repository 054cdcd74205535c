package engine

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// deployItemController is the landscaper side of the deployer contract: it
// fails deploy items that no deployer picked up in time.
type deployItemController struct {
	cfg *Config
}

var _ Reconciler = (*deployItemController)(nil)

// Reconcile checks the pickup timeout of the deploy item named key. An item is
// picked up once a deployer started its job (see pickedUp). An item waiting longer than the pickup timeout
// becomes Failed with reason PickupTimeout and jobIDFinished = jobID; before
// that, the controller asks to be woken at the deadline.
func (c *deployItemController) Reconcile(ctx context.Context, key types.NamespacedName) (Result, error) {
	di := &lsv1alpha1.DeployItem{}
	if err := c.cfg.Cluster.Get(ctx, key, di); err != nil {
		if apierrors.IsNotFound(err) {
			return Result{}, nil
		}
		return Result{}, err
	}
	st := di.Status
	if c.cfg.Timeouts.Pickup < 0 || st.JobID == st.JobIDFinished || st.JobIDGenerationTime == nil {
		return Result{}, nil
	}
	if pickedUp(di) {
		return Result{}, nil
	}
	deadline := st.JobIDGenerationTime.Add(c.cfg.Timeouts.Pickup)
	now := c.cfg.Clock.Now()
	if now.Before(deadline) {
		return Result{RequeueAfter: deadline.Sub(now), Deadline: true}, nil
	}
	return Result{}, c.failPickup(ctx, di)
}

// failPickup sets di to Failed because no deployer picked it up.
func (c *deployItemController) failPickup(ctx context.Context, di *lsv1alpha1.DeployItem) error {
	now := c.cfg.Clock.Now()
	msg := fmt.Errorf("no deployer has reconciled this deployitem within %d seconds, probably because the referenced Target does not exist or no deployer serves type %s",
		int(c.cfg.Timeouts.Pickup.Seconds()), di.Spec.Type)
	di.Status.LastError = NewLastError(di.Status.LastError, lsv1alpha1.PickupTimeoutOperation, lsv1alpha1.PickupTimeoutReason, msg, now)
	di.Status.LastError.Codes = []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}
	ts := metav1.NewTime(now)
	di.Status.Phase = lsv1alpha1.DeployItemPhases.Failed
	if di.DeletionTimestamp != nil {
		di.Status.Phase = lsv1alpha1.DeployItemPhases.DeleteFailed
	}
	di.Status.JobIDFinished = di.Status.JobID
	if di.Status.TransitionTimes != nil {
		di.Status.TransitionTimes.FinishedTime = &ts
	}
	return c.cfg.Cluster.UpdateStatus(ctx, di)
}

// pickedUp reports whether a deployer has started di's current job. A new job
// leaves the phase of the last one (final, or empty for a new item) until a
// deployer moves it to Init or InitDelete and sets lastReconcileTime. Landscaper
// compares lastReconcileTime with jobIDGenerationTime; in virtual time both
// can be the same instant, so the phase is the exact signal.
func pickedUp(di *lsv1alpha1.DeployItem) bool {
	st := di.Status
	return st.JobID == st.JobIDFinished || (st.Phase != "" && !st.Phase.IsFinal())
}
