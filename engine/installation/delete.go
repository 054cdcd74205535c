package installation

import (
	"context"
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// initDelete is the InitDelete phase. Unless inst has the
// delete-ignore-successors annotation, it waits (normal error) while siblings
// that import its exports exist, and fails when one of them failed its
// deletion. Then it passes delete-without-uninstall on to its children,
// deletes them, and moves to TriggerDelete.
func (c *Controller) initDelete(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	if err := c.checkSuccessorsGone(ctx, inst); err != nil {
		return "", err
	}
	kids, err := c.children(ctx, inst)
	if err != nil {
		return "", err
	}
	withoutUninstall := lshelper.HasDeleteWithoutUninstallAnnotation(inst.ObjectMeta)
	for _, k := range kids {
		if withoutUninstall {
			if err := flow.Annotate(ctx, c.cfg.Cluster, k.obj, lsv1alpha1.DeleteWithoutUninstallAnnotation, "true"); err != nil {
				return "", fmt.Errorf("pass on delete-without-uninstall to %s %s: %w", k.kind, k.obj.GetName(), err)
			}
		}
		if k.obj.GetDeletionTimestamp() == nil {
			if err := c.cfg.Cluster.Delete(ctx, k.obj); err != nil {
				return "", fmt.Errorf("delete %s %s: %w", k.kind, k.obj.GetName(), err)
			}
		}
	}
	return lsv1alpha1.InstallationPhases.TriggerDelete, nil
}

// checkSuccessorsGone returns a normal error while successors of inst exist
// and a terminal one when a successor failed its deletion.
func (c *Controller) checkSuccessorsGone(ctx context.Context, inst *lsv1alpha1.Installation) error {
	if inst.Annotations[lsv1alpha1.DeleteIgnoreSuccessors] == "true" ||
		(inst.Spec.Optimization != nil && inst.Spec.Optimization.HasNoSiblingExports) {
		return nil
	}
	succ, err := successors(ctx, c.cfg.Cluster, inst)
	if err != nil || len(succ) == 0 {
		return err
	}
	var names []string
	for _, s := range succ {
		if s.Status.InstallationPhase == lsv1alpha1.InstallationPhases.DeleteFailed {
			return reconcile.TerminalErrorf("SuccessorDeleteFailed", "successor %s failed its deletion", s.Name)
		}
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return fmt.Errorf("waiting for successors to be deleted first: %s", strings.Join(names, ", "))
}

// deleting is the Deleting phase: when the children are gone, the finalizer
// is removed (the installation disappears) and siblings being deleted are
// touched, so that a predecessor waiting for this one goes on. When all
// remaining children have finished the job, they failed: DeleteFailed.
// Otherwise it waits.
func (c *Controller) deleting(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	kids, err := c.children(ctx, inst)
	if err != nil {
		return "", err
	}
	if len(kids) == 0 {
		return lsv1alpha1.InstallationPhase(flow.Gone), c.removeFinalizer(ctx, inst)
	}
	var failed []string
	for _, k := range kids {
		if k.status.JobIDFinished != inst.Status.JobID {
			return "", nil
		}
		failed = append(failed, fmt.Sprintf("%s %s", k.kind, k.obj.GetName()))
	}
	sort.Strings(failed)
	return "", reconcile.TerminalErrorf("DeleteFailed", "deletion failed for: %s", strings.Join(failed, ", "))
}

// removeFinalizer lets inst go and wakes the siblings being deleted.
func (c *Controller) removeFinalizer(ctx context.Context, inst *lsv1alpha1.Installation) error {
	sibs, err := siblings(ctx, c.cfg.Cluster, inst)
	if err != nil {
		return err
	}
	controllerutil.RemoveFinalizer(inst, lsv1alpha1.LandscaperFinalizer)
	if err := c.cfg.Cluster.Update(ctx, inst); err != nil {
		return fmt.Errorf("remove finalizer: %w", err)
	}
	for _, s := range sibs {
		if s.DeletionTimestamp != nil && s.Status.JobID != s.Status.JobIDFinished {
			lshelper.Touch(&s.ObjectMeta)
			if err := c.cfg.Cluster.Update(ctx, s); err != nil {
				return fmt.Errorf("touch sibling %s: %w", s.Name, err)
			}
		}
	}
	return nil
}
