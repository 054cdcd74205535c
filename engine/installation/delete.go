package installation

import (
	"context"
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/reconcile"
)

// The errors of Landscaper's successor check.
var (
	errSiblingImport = errors.New("a sibling still imports some of the exports")
	errSiblingDelete = errors.New("deletion of a sibling failed")
)

// initDelete is the InitDelete phase. Unless the successor check says to
// wait or fail (see checkSuccessor), it passes delete-without-uninstall on
// to its children and deletes them, the execution first, as Landscaper does,
// and moves to TriggerDelete.
func (c *Controller) initDelete(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	const op = "handleDeletionPhaseInit"
	if err := c.checkSuccessor(ctx, inst); err != nil {
		return "", err
	}
	kids, err := c.children(ctx, inst)
	if err != nil {
		return "", reconcile.Fatal(phaseError(err, op))
	}
	deletionOrder(kids)
	withoutUninstall := lshelper.HasDeleteWithoutUninstallAnnotation(inst.ObjectMeta)
	for _, k := range kids {
		if withoutUninstall {
			if err := flow.Annotate(ctx, c.cfg.Cluster, k.obj, lsv1alpha1.DeleteWithoutUninstallAnnotation, "true"); err != nil {
				return "", reconcile.Fatal(reconcile.Wrap(err, op, "Update"+k.kind))
			}
		}
		if k.obj.GetDeletionTimestamp() == nil {
			if err := c.cfg.Cluster.Delete(ctx, k.obj); err != nil {
				return "", reconcile.Fatal(reconcile.Wrap(err, op, "Delete"+k.kind))
			}
		}
	}
	return lsv1alpha1.InstallationPhases.TriggerDelete, nil
}

// checkSuccessor is Landscaper's deleteAllowed: unless inst has the
// delete-ignore-successors annotation or spec.optimization.hasNoSiblingExports,
// it looks at the first sibling (by name) that imports what inst exports.
// If that one failed its deletion in inst's job (only a subinstallation
// sharing its parent's job can), the deletion fails; if it exists otherwise,
// inst waits (a normal error). A root whose successor root failed its own
// deletion therefore waits until that one is gone.
func (c *Controller) checkSuccessor(ctx context.Context, inst *lsv1alpha1.Installation) error {
	const op = "CheckSuccessorSibling"
	if inst.Annotations[lsv1alpha1.DeleteIgnoreSuccessors] == "true" ||
		(inst.Spec.Optimization != nil && inst.Spec.Optimization.HasNoSiblingExports) {
		return nil
	}
	succ, err := successors(ctx, c.cfg.Cluster, inst)
	if err != nil {
		return reconcile.Wrap(err, "DeleteInstallationAllowed", "CalculateInstallationContext", lsv1alpha1.ErrorInternalProblem)
	}
	if len(succ) == 0 {
		return nil
	}
	if s := succ[0]; s.Status.JobIDFinished == inst.Status.JobID && s.Status.InstallationPhase == lsv1alpha1.InstallationPhases.DeleteFailed {
		return reconcile.Fatal(reconcile.Wrap(errSiblingDelete, op, "SiblingDeleteError", lsv1alpha1.ErrorForInfoOnly))
	}
	return reconcile.Wrap(errSiblingImport, op, "SiblingImport", lsv1alpha1.ErrorForInfoOnly)
}

// deleting is the Deleting phase, as Landscaper's: when the children are
// gone, the finalizer is removed (the installation disappears) and siblings
// being deleted are touched (see removeFinalizer). When all remaining
// children have finished the job, they failed: DeleteFailed ("not all sub
// objects were deleted"). Otherwise it waits, with the normal error
// "deletion of some sub objects pending".
func (c *Controller) deleting(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	const op = "handleReconcilePhase"
	kids, err := c.children(ctx, inst)
	if err != nil {
		return "", phaseError(err, "handleDeletionPhaseDeleting")
	}
	if len(kids) == 0 {
		return lsv1alpha1.InstallationPhase(flow.Gone), c.removeFinalizer(ctx, inst)
	}
	for _, k := range kids {
		if k.status.JobIDFinished != inst.Status.JobID {
			return "", reconcile.NewError(op, "PendingSubobjects", "deletion of some sub objects pending", lsv1alpha1.ErrorForInfoOnly)
		}
	}
	return "", reconcile.Fatal(reconcile.NewError(op, "UndeletedSubobjects", "not all sub objects were deleted", lsv1alpha1.ErrorForInfoOnly))
}

// removeFinalizer lets inst go and, unless it has
// spec.optimization.hasNoSiblingImports, touches every sibling being
// deleted, so that a predecessor waiting for this one looks again at once.
func (c *Controller) removeFinalizer(ctx context.Context, inst *lsv1alpha1.Installation) error {
	const op = "handleDeletionPhaseDeleting"
	controllerutil.RemoveFinalizer(inst, lsv1alpha1.LandscaperFinalizer)
	if err := c.cfg.Cluster.Update(ctx, inst); err != nil {
		return reconcile.Wrap(err, op, "UpdateInstallation")
	}
	if inst.Spec.Optimization != nil && inst.Spec.Optimization.HasNoSiblingImports {
		return nil
	}
	sibs, err := siblings(ctx, c.cfg.Cluster, inst)
	if err != nil {
		return reconcile.Wrap(err, op, "GetParentAndSiblings")
	}
	for _, s := range sibs {
		if s.DeletionTimestamp == nil {
			continue
		}
		if err := c.setOperationAndTouch(ctx, s, ""); err != nil {
			return reconcile.Wrap(fmt.Errorf("touch sibling %s: %w", s.Name, err), op, "TouchSibling")
		}
	}
	return nil
}
