package installation

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// init is the Init phase: delete what the installation exported in an
// earlier job, read the blueprint, require finished and succeeded
// predecessors, resolve the imports and write them into the installation's own
// context, render and create or update the subinstallations (orphans are
// marked for deletion) and the Execution, and record the imports hash. It
// moves to CleanupOrphaned. A blueprint, import or template error, or a failed
// predecessor, is terminal; waiting for a predecessor or a missing import
// object is a normal error.
func (c *Controller) init(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	cl := c.cfg.Cluster
	if err := dataflow.CleanupExports(ctx, cl, inst); err != nil {
		return "", err
	}
	bp, tree, err := c.blueprintFor(ctx, inst)
	if err != nil {
		return "", err
	}
	if err := checkPredecessors(ctx, cl, inst); err != nil {
		return "", err
	}
	imps, err := dataflow.ResolveImports(ctx, cl, inst, bp, tree)
	if err != nil {
		return "", err
	}
	if err := dataflow.WriteImports(ctx, cl, inst, imps); err != nil {
		return "", err
	}
	subs, err := dataflow.RenderSubinstallations(ctx, cl, inst, bp, imps)
	if err != nil {
		return "", err
	}
	if err := c.ensureSubinstallations(ctx, inst, bp, tree, subs); err != nil {
		return "", err
	}
	templates, err := dataflow.RenderDeployItems(ctx, cl, inst, bp, imps)
	if err != nil {
		return "", err
	}
	if err := c.ensureExecution(ctx, inst, templates); err != nil {
		return "", err
	}
	inst.Status.ImportsHash = imps.Hash
	return lsv1alpha1.InstallationPhases.CleanupOrphaned, nil
}

// ensureExecution creates or updates the Execution of inst, named after it and
// controlled by it, and records it in status.executionRef.
func (c *Controller) ensureExecution(ctx context.Context, inst *lsv1alpha1.Installation, templates lsv1alpha1.DeployItemTemplateList) error {
	exec, err := c.execution(ctx, inst)
	if err != nil {
		return err
	}
	if exec == nil && len(templates) == 0 {
		return nil
	}
	if exec == nil {
		exec = newExecution(inst, templates)
		if err := c.cfg.Cluster.Create(ctx, exec); err != nil {
			if apierrors.IsAlreadyExists(err) {
				return reconcile.TerminalErrorf("ExecutionConflict", "execution %s exists and is not owned by this installation", inst.Name)
			}
			return fmt.Errorf("create execution: %w", err)
		}
	} else if !equality.Semantic.DeepEqual(exec.Spec.DeployItems, templates) || exec.Spec.Context != inst.Spec.Context {
		exec.Spec.DeployItems = templates
		exec.Spec.Context = inst.Spec.Context
		if err := c.cfg.Cluster.Update(ctx, exec); err != nil {
			return fmt.Errorf("update execution: %w", err)
		}
	}
	ref := &lsv1alpha1.ObjectReference{Name: exec.Name, Namespace: exec.Namespace}
	if !equality.Semantic.DeepEqual(inst.Status.ExecutionReference, ref) {
		inst.Status.ExecutionReference = ref
		return c.cfg.Cluster.UpdateStatus(ctx, inst)
	}
	return nil
}

// newExecution returns the Execution Landscaper creates for inst.
func newExecution(inst *lsv1alpha1.Installation, templates lsv1alpha1.DeployItemTemplateList) *lsv1alpha1.Execution {
	exec := &lsv1alpha1.Execution{
		ObjectMeta: metav1.ObjectMeta{
			Name:            inst.Name,
			Namespace:       inst.Namespace,
			OwnerReferences: []metav1.OwnerReference{dataflow.ControllerRef(inst, "Installation")},
		},
		Spec: lsv1alpha1.ExecutionSpec{Context: inst.Spec.Context, DeployItems: templates},
	}
	return exec
}
