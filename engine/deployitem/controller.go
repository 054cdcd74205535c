package deployitem

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DefaultPickupTimeout is Landscaper's default deployItemTimeouts.pickup.
const DefaultPickupTimeout = 5 * time.Minute

// Options are what the deploy item controller needs.
type Options struct {
	// Cluster is the API server. Required.
	Cluster *fakecluster.Cluster
	// Clock tells when the pickup timeout expires. Required.
	Clock reconcile.Clock
	// PickupTimeout is how long a deploy item may wait for a deployer to pick
	// it up. Zero means DefaultPickupTimeout; negative disables the check
	// ("none").
	PickupTimeout time.Duration
}

// Controller is the landscaper side of the deployer contract: it fails
// deploy items that no deployer picked up in time.
type Controller struct {
	cfg *Options
}

// New returns the deploy item controller over opts.
func New(opts Options) *Controller {
	if opts.PickupTimeout == 0 {
		opts.PickupTimeout = DefaultPickupTimeout
	}
	return &Controller{cfg: &opts}
}

var _ reconcile.ObjectReconciler[*lsv1alpha1.DeployItem] = (*Controller)(nil)

// Reconcile checks the pickup timeout of di. An item is picked up once a
// deployer started its job (see PickedUp). An item waiting longer than the
// pickup timeout becomes Failed with reason PickupTimeout and jobIDFinished =
// jobID; before that, the controller asks to be woken at the deadline.
func (c *Controller) Reconcile(ctx context.Context, di *lsv1alpha1.DeployItem) (reconcile.Result, error) {
	st := di.Status
	if c.cfg.PickupTimeout < 0 || st.JobID == st.JobIDFinished || st.JobIDGenerationTime == nil {
		return reconcile.Result{}, nil
	}
	if PickedUp(di) {
		return reconcile.Result{}, nil
	}
	deadline := st.JobIDGenerationTime.Add(c.cfg.PickupTimeout)
	now := c.cfg.Clock.Now()
	if now.Before(deadline) {
		return reconcile.Result{RequeueAfter: deadline.Sub(now), Deadline: true}, nil
	}
	return reconcile.Result{}, c.failPickup(ctx, di)
}

// failPickup sets di to Failed because no deployer picked it up.
func (c *Controller) failPickup(ctx context.Context, di *lsv1alpha1.DeployItem) error {
	now := c.cfg.Clock.Now()
	msg := fmt.Errorf("no deployer has reconciled this deployitem within %d seconds, probably because the referenced Target does not exist or no deployer serves type %s",
		int(c.cfg.PickupTimeout.Seconds()), di.Spec.Type)
	di.Status.LastError = reconcile.NewLastError(di.Status.LastError, lsv1alpha1.PickupTimeoutOperation, lsv1alpha1.PickupTimeoutReason, msg, now)
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

// PickedUp reports whether a deployer has started di's current job. A new job
// leaves the phase of the last one (final, or empty for a new item) until a
// deployer moves it to Init or InitDelete and sets lastReconcileTime. Landscaper
// compares lastReconcileTime with jobIDGenerationTime; in virtual time both
// can be the same instant, so the phase is the exact signal.
func PickedUp(di *lsv1alpha1.DeployItem) bool {
	st := di.Status
	return st.JobID == st.JobIDFinished || (st.Phase != "" && !st.Phase.IsFinal())
}
