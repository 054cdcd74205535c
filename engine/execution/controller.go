package execution

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Options are what the execution controller needs.
type Options struct {
	// Cluster is the API server. Required.
	Cluster *fakecluster.Cluster
	// Clock stamps phase transitions. Required.
	Clock reconcile.Clock
	// Shoots says whether the Gardener shoot clusters that Targets managed by
	// a TargetSync point at still exist, for
	// onDelete.skipUninstallIfClusterRemoved. Nil means every shoot exists.
	Shoots ShootChecker
}

// ShootChecker tells whether a Gardener shoot cluster exists: Landscaper asks
// the garden cluster of a TargetSync.
type ShootChecker interface {
	ShootExists(namespace, name string) bool
}

// Controller is Landscaper's execution controller: it turns an Execution's
// templates into DeployItems, triggers them in dependsOn order and collects
// their exports.
type Controller struct {
	cfg     *Options
	machine *flow.Machine[*lsv1alpha1.Execution, lsv1alpha1.ExecutionPhase]
	// progress is the last view of an execution's items in Progressing
	// (see progressView).
	progress flow.ViewMemo[itemsView]
	// startCache holds the status.deployItemCache of the job before, from
	// the start of a job to its Init (see onStart).
	startCache flow.StartMemo[*lsv1alpha1.DeployItemCache]
	// unobservedGeneration receives what the flow machine would write to
	// status.observedGeneration (see status).
	unobservedGeneration int64
}

// New returns the execution controller over opts.
func New(opts Options) *Controller {
	c := &Controller{cfg: &opts}
	phases := lsv1alpha1.ExecutionPhases
	c.machine = &flow.Machine[*lsv1alpha1.Execution, lsv1alpha1.ExecutionPhase]{
		Client: opts.Cluster, Clock: opts.Clock, Status: c.status,
		Init: phases.Init, InitDelete: phases.InitDelete, Failed: phases.Failed, DeleteFailed: phases.DeleteFailed,
		OnStart: c.onStart,
		Run:     c.runPhase,
	}
	return c
}

// onStart resets status.deployItemCache when a job starts and keeps what it
// was for the job's Init, as Landscaper's handleReconcilePhase does: the
// cache of the job before, an empty one for a new execution (phase empty).
func (c *Controller) onStart(exec *lsv1alpha1.Execution) {
	cache := exec.Status.DeployItemCache
	if exec.Status.ExecutionPhase == "" {
		cache = &lsv1alpha1.DeployItemCache{}
	}
	exec.Status.DeployItemCache = nil
	if exec.DeletionTimestamp != nil {
		// A deletion job starts in InitDelete, which has no use for it.
		c.startCache.Forget()
		return
	}
	c.startCache.Keep(exec.UID, cache)
}

// takeStartCache returns the cache onStart kept for exec and forgets it; nil
// when there is none (an Init that is not the first phase of its job's
// first pass), as Landscaper then has none.
func (c *Controller) takeStartCache(exec *lsv1alpha1.Execution) *lsv1alpha1.DeployItemCache {
	cache, _ := c.startCache.Take(exec.UID)
	return cache
}

// status is flow.ExecutionStatus without status.observedGeneration:
// Landscaper's execution controller never writes it, so it keeps what the
// Execution was created with (0).
func (c *Controller) status(exec *lsv1alpha1.Execution) flow.Status[lsv1alpha1.ExecutionPhase] {
	st := flow.ExecutionStatus(exec)
	st.ObservedGeneration = &c.unobservedGeneration
	return st
}

var (
	_ reconcile.ObjectReconciler[*lsv1alpha1.Execution] = (*Controller)(nil)
	_ reconcile.Idler[*lsv1alpha1.Execution]            = (*Controller)(nil)
)

// Idle reports whether a reconcile of exec would change nothing: it has its
// finalizer (or is being deleted), no interrupt, and its job has finished
// (see done) or waits in Progressing as recorded (see waitsAsRecorded).
func (c *Controller) Idle(ctx context.Context, exec *lsv1alpha1.Execution) bool {
	return done(exec) || (settled(exec) && c.waitsAsRecorded(ctx, exec))
}

// settled reports whether exec has its finalizer (or is being deleted) and
// no interrupt.
func settled(exec *lsv1alpha1.Execution) bool {
	hasFinalizer := exec.DeletionTimestamp != nil || controllerutil.ContainsFinalizer(exec, lsv1alpha1.LandscaperFinalizer)
	return hasFinalizer && !flow.HasOperation(exec, lsv1alpha1.InterruptOperation)
}

// done reports whether a pass over exec has nothing to do: it is settled and
// its job has finished.
func done(exec *lsv1alpha1.Execution) bool {
	return settled(exec) && exec.Status.JobID == exec.Status.JobIDFinished
}

// Reconcile runs one pass over exec: add the finalizer, handle an interrupt,
// and, while the execution's job is unfinished (jobID != jobIDFinished),
// handle the current phase.
func (c *Controller) Reconcile(ctx context.Context, exec *lsv1alpha1.Execution) (reconcile.Result, error) {
	if done(exec) {
		return reconcile.Result{}, nil
	}
	if exec.DeletionTimestamp == nil && !controllerutil.ContainsFinalizer(exec, lsv1alpha1.LandscaperFinalizer) {
		controllerutil.AddFinalizer(exec, lsv1alpha1.LandscaperFinalizer)
		return reconcile.Result{}, c.cfg.Cluster.Update(ctx, exec)
	}
	if flow.HasOperation(exec, lsv1alpha1.InterruptOperation) {
		return reconcile.Result{}, c.interrupt(ctx, exec)
	}
	if exec.Status.JobID == exec.Status.JobIDFinished {
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, c.machine.Handle(ctx, exec)
}

// runPhase does the work of the current phase and returns the next one, as
// Landscaper's execution controller does: an error in Init, Completing or
// InitDelete is fatal, one in Progressing or Deleting is not.
//
// Init deletes orphaned items and creates and updates the deploy items, then
// moves to Progressing. Progressing first drives the deletion of orphaned
// items, then triggers runnable items; it moves to Completing when all
// succeeded, to Failed when an item failed or none can start, and otherwise
// waits for item changes. Completing collects exports and ends in Succeeded.
// InitDelete deletes the items and moves to Deleting, which triggers their
// deletion in reverse dependsOn order and removes the finalizer when they are
// gone.
func (c *Controller) runPhase(ctx context.Context, exec *lsv1alpha1.Execution) (lsv1alpha1.ExecutionPhase, error) {
	phases := lsv1alpha1.ExecutionPhases
	switch exec.Status.ExecutionPhase {
	case phases.Init:
		if err := c.updateDeployItems(ctx, exec); err != nil {
			return "", reconcile.Fatal(err)
		}
		flow.SetWaitTime(&exec.Status.TransitionTimes, c.cfg.Clock.Now())
		return phases.Progressing, nil
	case phases.Progressing:
		return c.progressing(ctx, exec)
	case phases.Completing:
		if exec.Status.DeployItemCache != nil {
			exec.Status.DeployItemCache.OrphanedDIs = nil
		}
		return phases.Succeeded, reconcile.Fatal(c.collectExports(ctx, exec))
	case phases.InitDelete:
		return phases.Deleting, reconcile.Fatal(c.deleteDeployItems(ctx, exec))
	case phases.Deleting:
		return c.deleting(ctx, exec)
	}
	return "", fmt.Errorf("phase %q is not handled", exec.Status.ExecutionPhase)
}
