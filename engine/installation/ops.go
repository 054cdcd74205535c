package installation

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/landscaper/dataflow"
)

// interrupt removes the interrupt annotation from inst, then puts it on its
// execution and its subinstallations, each touched so that the update always
// reaches them; they pass it on down to the execution controller, which
// fails the unfinished deploy items. The installation's own phase does not
// change here.
func (c *Controller) interrupt(ctx context.Context, inst *lsv1alpha1.Installation) error {
	delete(inst.Annotations, lsv1alpha1.OperationAnnotation)
	if err := c.cfg.Cluster.Update(ctx, inst); err != nil {
		return err
	}
	exec, err := c.execution(ctx, inst)
	if err != nil {
		return err
	}
	if exec != nil {
		if err := c.setOperationAndTouch(ctx, exec, lsv1alpha1.InterruptOperation); err != nil {
			return fmt.Errorf("forward interrupt to execution %s: %w", exec.Name, err)
		}
	}
	subs, err := c.subinstallations(ctx, inst)
	if err != nil {
		return nil // as Landscaper: a list error ends the interrupt quietly
	}
	for _, sub := range subs {
		if err := c.setOperationAndTouch(ctx, sub, lsv1alpha1.InterruptOperation); err != nil {
			return fmt.Errorf("forward interrupt to installation %s: %w", sub.Name, err)
		}
	}
	return nil
}

// triggerDependents wakes the siblings recorded in
// status.dependentsToTrigger when inst last finished a job (Succeeded or
// Failed): each is touched, and a root also gets the reconcile annotation
// (replacing any other operation), in one update, so a waiting successor
// looks again at once and an idle root starts a job. Then
// status.dependentsToTrigger is cleared.
func (c *Controller) triggerDependents(ctx context.Context, inst *lsv1alpha1.Installation) error {
	for _, dep := range inst.Status.DependentsToTrigger {
		sib := &lsv1alpha1.Installation{}
		err := c.cfg.Cluster.Get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: dep.Name}, sib)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("failed to get dependent installation: %w", err)
		}
		var op lsv1alpha1.Operation
		if dataflow.IsRoot(sib) {
			op = lsv1alpha1.ReconcileOperation
		}
		if err := c.setOperationAndTouch(ctx, sib, op); err != nil {
			return fmt.Errorf("failed to update dependent installation: %w", err)
		}
	}
	inst.Status.DependentsToTrigger = nil
	if err := c.cfg.Cluster.UpdateStatus(ctx, inst); err != nil {
		return fmt.Errorf("failed to clear depends: %w", err)
	}
	return nil
}
