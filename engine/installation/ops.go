package installation

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/landscaper/dataflow"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
)

// interrupt removes the interrupt annotation from inst and puts it on all its
// children (subinstallations and execution), which pass it on down to the
// execution controller, which fails the unfinished deploy items.
func (c *Controller) interrupt(ctx context.Context, inst *lsv1alpha1.Installation) error {
	kids, err := c.children(ctx, inst)
	if err != nil {
		return err
	}
	for _, k := range kids {
		if err := flow.Annotate(ctx, c.cfg.Cluster, k.obj, lsv1alpha1.OperationAnnotation, string(lsv1alpha1.InterruptOperation)); err != nil {
			return fmt.Errorf("forward interrupt to %s %s: %w", k.kind, k.obj.GetName(), err)
		}
	}
	delete(inst.Annotations, lsv1alpha1.OperationAnnotation)
	return c.cfg.Cluster.Update(ctx, inst)
}

// triggerDependents wakes the siblings that import what inst exported in its
// last job: a root gets the reconcile annotation, a subinstallation is
// touched. Then status.dependentsToTrigger is cleared.
func (c *Controller) triggerDependents(ctx context.Context, inst *lsv1alpha1.Installation) error {
	for _, dep := range inst.Status.DependentsToTrigger {
		sib := &lsv1alpha1.Installation{}
		err := c.cfg.Cluster.Get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: dep.Name}, sib)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return err
		}
		if dataflow.IsRoot(sib) {
			err = flow.Annotate(ctx, c.cfg.Cluster, sib, lsv1alpha1.OperationAnnotation, string(lsv1alpha1.ReconcileOperation))
		} else {
			lshelper.Touch(&sib.ObjectMeta)
			err = c.cfg.Cluster.Update(ctx, sib)
		}
		if err != nil {
			return fmt.Errorf("trigger dependent %s: %w", dep.Name, err)
		}
	}
	inst.Status.DependentsToTrigger = nil
	return c.cfg.Cluster.UpdateStatus(ctx, inst)
}
