package engine

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// installationController is Landscaper's installation controller: it starts
// jobs at root installations and walks an installation through its phases.
type installationController struct {
	cfg *Config
}

var _ Reconciler = (*installationController)(nil)

// Reconcile runs one pass over the installation named key, in Landscaper's
// order: add the finalizer, trigger dependents recorded by the last job,
// forward an interrupt, strip a reconcile annotation from a non-root, start a
// new job at a root, then handle the current phase.
func (c *installationController) Reconcile(ctx context.Context, key types.NamespacedName) (Result, error) {
	inst := &lsv1alpha1.Installation{}
	if err := c.cfg.Cluster.Get(ctx, key, inst); err != nil {
		if apierrors.IsNotFound(err) {
			return Result{}, nil
		}
		return Result{}, err
	}
	if inst.DeletionTimestamp == nil && !controllerutil.ContainsFinalizer(inst, lsv1alpha1.LandscaperFinalizer) {
		controllerutil.AddFinalizer(inst, lsv1alpha1.LandscaperFinalizer)
		return Result{}, c.cfg.Cluster.Update(ctx, inst)
	}
	if len(inst.Status.DependentsToTrigger) > 0 {
		return Result{}, c.triggerDependents(ctx, inst)
	}
	if hasOperation(inst, lsv1alpha1.InterruptOperation) {
		return Result{}, c.interrupt(ctx, inst)
	}
	if !IsRoot(inst) && hasOperation(inst, lsv1alpha1.ReconcileOperation) {
		delete(inst.Annotations, lsv1alpha1.OperationAnnotation)
		return Result{}, c.cfg.Cluster.Update(ctx, inst)
	}
	if startsNewJob(inst) {
		if err := c.startJob(ctx, inst); err != nil {
			return Result{}, err
		}
	}
	if inst.Status.JobID == inst.Status.JobIDFinished {
		return Result{}, nil
	}
	return c.handlePhase(ctx, inst)
}

// IsRoot reports whether inst is a root installation: one that no other
// installation owns.
func IsRoot(inst *lsv1alpha1.Installation) bool {
	owner := metav1.GetControllerOf(inst)
	return owner == nil || owner.Kind != "Installation"
}

func hasOperation(obj metav1.Object, op lsv1alpha1.Operation) bool {
	return obj.GetAnnotations()[lsv1alpha1.OperationAnnotation] == string(op)
}

// startsNewJob reports whether a root installation starts a job now: the
// previous job has finished, and it has a reconcile annotation or was just
// deleted for the first time.
func startsNewJob(inst *lsv1alpha1.Installation) bool {
	if !IsRoot(inst) || inst.Status.JobID != inst.Status.JobIDFinished {
		return false
	}
	if hasOperation(inst, lsv1alpha1.ReconcileOperation) {
		return true
	}
	return inst.DeletionTimestamp != nil && !inst.Status.InstallationPhase.IsDeletion()
}

// startJob removes the reconcile annotation and gives inst a new job ID.
func (c *installationController) startJob(ctx context.Context, inst *lsv1alpha1.Installation) error {
	if hasOperation(inst, lsv1alpha1.ReconcileOperation) {
		delete(inst.Annotations, lsv1alpha1.OperationAnnotation)
		if err := c.cfg.Cluster.Update(ctx, inst); err != nil {
			return fmt.Errorf("remove reconcile annotation: %w", err)
		}
	}
	now := metav1.NewTime(c.cfg.Clock.Now())
	inst.Status.JobID = c.cfg.Rand.NewJobID()
	inst.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{TriggerTime: &now}
	return c.cfg.Cluster.UpdateStatus(ctx, inst)
}
