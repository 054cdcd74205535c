package deployitem

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
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

var (
	_ reconcile.ObjectReconciler[*lsv1alpha1.DeployItem] = (*Controller)(nil)
	_ reconcile.Idler[*lsv1alpha1.DeployItem]            = (*Controller)(nil)
)

// Idle reports whether there is no pickup to watch for di: the check is off,
// its job has finished, no job was given to it, or a deployer picked it up.
func (c *Controller) Idle(_ context.Context, di *lsv1alpha1.DeployItem) bool {
	_, _, ok := PickupLimit(di, c.cfg.PickupTimeout)
	return !ok
}

// PickupLimit returns when Landscaper's deploy item controller first finds
// that di has waited the pickup timeout (timeout; zero means
// DefaultPickupTimeout, negative none) since its job reached it, and when it
// looks then by itself (five seconds later); false when no check is due.
func PickupLimit(di *lsv1alpha1.DeployItem, timeout time.Duration) (limit, due time.Time, ok bool) {
	if timeout == 0 {
		timeout = DefaultPickupTimeout
	}
	st := di.Status
	if timeout < 0 || st.JobID == st.JobIDFinished || st.JobIDGenerationTime == nil || PickedUp(di) {
		return time.Time{}, time.Time{}, false
	}
	limit = st.JobIDGenerationTime.Add(timeout)
	return limit, limit.Add(pickupGrace), true
}

// pickupGrace is how long after the pickup timeout Landscaper looks again:
// it requeues an item for the time left plus five seconds.
const pickupGrace = 5 * time.Second

// Reconcile checks the pickup timeout of di as Landscaper's deploy item
// controller does. An item is picked up once a deployer started its job (see
// PickedUp). An item that has waited at least the pickup timeout since
// jobIDGenerationTime becomes Failed (DeleteFailed when deleting) with reason
// PickupTimeout and jobIDFinished = jobID. Before that, the controller asks
// to be woken when the time left plus five seconds has passed, so the item
// fails at jobIDGenerationTime + timeout + 5s unless something wakes the
// controller earlier.
func (c *Controller) Reconcile(ctx context.Context, di *lsv1alpha1.DeployItem) (reconcile.Result, error) {
	limit, look, ok := PickupLimit(di, c.cfg.PickupTimeout)
	if !ok {
		return reconcile.Result{}, nil
	}
	if now := c.cfg.Clock.Now(); now.Before(limit) {
		return reconcile.Result{RequeueAfter: look.Sub(now), Deadline: true}, nil
	}
	targetMissing, err := c.targetMissing(ctx, di)
	if err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, c.failPickup(ctx, di, targetMissing)
}

// targetMissing reports whether di names a Target that does not exist.
func (c *Controller) targetMissing(ctx context.Context, di *lsv1alpha1.DeployItem) (bool, error) {
	if di.Spec.Target == nil || di.Spec.Target.Name == "" {
		return false, nil
	}
	err := c.cfg.Cluster.Get(ctx, types.NamespacedName{Namespace: di.Namespace, Name: di.Spec.Target.Name}, &lsv1alpha1.Target{})
	if apierrors.IsNotFound(err) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("get target of deploy item %s: %w", di.Name, err)
	}
	return false, nil
}

// failPickup sets di to Failed because no deployer picked it up. The message
// names the Target only when it does not exist, as Landscaper's does.
func (c *Controller) failPickup(ctx context.Context, di *lsv1alpha1.DeployItem, targetMissing bool) error {
	now := c.cfg.Clock.Now()
	msg := fmt.Sprintf("no deployer has reconciled this deployitem within %d seconds", c.cfg.PickupTimeout/time.Second)
	if targetMissing {
		msg += ", probably because the referenced Target does not exist"
	}
	ts := metav1.NewTime(now)
	di.Status.JobIDFinished = di.Status.JobID
	if di.Status.TransitionTimes == nil {
		di.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{}
	}
	di.Status.TransitionTimes.FinishedTime = &ts
	di.Status.ObservedGeneration = di.Generation
	di.Status.Phase = lsv1alpha1.DeployItemPhases.Failed
	if di.DeletionTimestamp != nil {
		di.Status.Phase = lsv1alpha1.DeployItemPhases.DeleteFailed
	}
	reconcile.SetDeployItemError(&di.Status, reconcile.UpdatedError(di.Status.LastError, lsv1alpha1.PickupTimeoutOperation,
		lsv1alpha1.PickupTimeoutReason, msg, []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}, now))
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
