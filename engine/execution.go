package engine

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// executionController is Landscaper's execution controller: it turns an
// Execution's templates into DeployItems, triggers them in dependsOn order and
// collects their exports.
type executionController struct {
	cfg *Config
}

var _ Reconciler = (*executionController)(nil)

// Reconcile runs one pass over the execution named key: add the finalizer,
// handle an interrupt, and, while the execution's job is unfinished
// (jobID != jobIDFinished), handle the current phase.
func (c *executionController) Reconcile(ctx context.Context, key types.NamespacedName) (Result, error) {
	exec := &lsv1alpha1.Execution{}
	if err := c.cfg.Cluster.Get(ctx, key, exec); err != nil {
		if apierrors.IsNotFound(err) {
			return Result{}, nil
		}
		return Result{}, err
	}
	if exec.DeletionTimestamp == nil && !controllerutil.ContainsFinalizer(exec, lsv1alpha1.LandscaperFinalizer) {
		controllerutil.AddFinalizer(exec, lsv1alpha1.LandscaperFinalizer)
		return Result{}, c.cfg.Cluster.Update(ctx, exec)
	}
	if hasOperation(exec, lsv1alpha1.InterruptOperation) {
		return Result{}, c.interrupt(ctx, exec)
	}
	if exec.Status.JobID == exec.Status.JobIDFinished {
		return Result{}, nil
	}
	if exec.Status.ExecutionPhase == "" || exec.Status.ExecutionPhase.IsFinal() {
		if err := c.enterFirstPhase(ctx, exec); err != nil {
			return Result{}, err
		}
	}
	return Result{}, c.handlePhase(ctx, exec)
}

// handlePhase runs phases until one has to wait or the flow ends.
//
// Init creates and updates the deploy items and moves to Progressing.
// Progressing first waits for orphaned items to be gone, then triggers
// runnable items; it moves to Completing when all succeeded, to Failed when an
// item failed or none can start, and otherwise waits for item changes.
// Completing collects exports and ends in Succeeded. InitDelete deletes the
// items and moves to Deleting, which triggers their deletion in reverse
// dependsOn order and removes the finalizer when they are gone.
func (c *executionController) handlePhase(ctx context.Context, exec *lsv1alpha1.Execution) error {
	for {
		var next lsv1alpha1.ExecutionPhase
		var err error
		switch exec.Status.ExecutionPhase {
		case lsv1alpha1.ExecutionPhases.Init:
			next, err = lsv1alpha1.ExecutionPhases.Progressing, c.updateDeployItems(ctx, exec)
		case lsv1alpha1.ExecutionPhases.Progressing:
			next, err = c.triggerDeployItems(ctx, exec)
		case lsv1alpha1.ExecutionPhases.Completing:
			next, err = lsv1alpha1.ExecutionPhases.Succeeded, c.collectExports(ctx, exec)
		case lsv1alpha1.ExecutionPhases.InitDelete:
			next, err = lsv1alpha1.ExecutionPhases.Deleting, c.deleteDeployItems(ctx, exec)
		case lsv1alpha1.ExecutionPhases.Deleting:
			next, err = c.deleting(ctx, exec)
		default:
			return fmt.Errorf("phase %q is not handled", exec.Status.ExecutionPhase)
		}
		if err != nil {
			return c.handleError(ctx, exec, err)
		}
		if next == "" || next == execGone {
			return nil
		}
		if err := c.setPhase(ctx, exec, next); err != nil || next.IsFinal() {
			return err
		}
	}
}

func (c *executionController) enterFirstPhase(ctx context.Context, exec *lsv1alpha1.Execution) error {
	first := lsv1alpha1.ExecutionPhases.Init
	if exec.DeletionTimestamp != nil {
		first = lsv1alpha1.ExecutionPhases.InitDelete
	}
	executionFlow(exec).start(first, exec.Generation, c.cfg.Clock.Now())
	return c.writeStatus(ctx, exec, first)
}

// setPhase writes phase; a final phase also finishes the job.
func (c *executionController) setPhase(ctx context.Context, exec *lsv1alpha1.Execution, phase lsv1alpha1.ExecutionPhase) error {
	executionFlow(exec).set(phase, c.cfg.Clock.Now())
	return c.writeStatus(ctx, exec, phase)
}

func (c *executionController) writeStatus(ctx context.Context, exec *lsv1alpha1.Execution, phase lsv1alpha1.ExecutionPhase) error {
	if err := c.cfg.Cluster.UpdateStatus(ctx, exec); err != nil {
		return fmt.Errorf("set phase %s: %w", phase, err)
	}
	return nil
}

// handleError records err; terminal errors end the flow in Failed
// (DeleteFailed while deleting), normal ones are returned for a retry.
func (c *executionController) handleError(ctx context.Context, exec *lsv1alpha1.Execution, err error) error {
	phases := lsv1alpha1.ExecutionPhases
	terminal := executionFlow(exec).fail(err, phases.Failed, phases.DeleteFailed, c.cfg.Clock.Now())
	if uerr := c.writeStatus(ctx, exec, exec.Status.ExecutionPhase); uerr != nil || terminal {
		return uerr
	}
	return err
}
