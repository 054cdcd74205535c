package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// siblings returns the other installations with the same parent: for a
// subinstallation the parent's other subinstallations, for a root every other
// root in the namespace.
func siblings(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) ([]*lsv1alpha1.Installation, error) {
	list := &lsv1alpha1.InstallationList{}
	opts := fakecluster.ListOptions{Namespace: inst.Namespace}
	owner := metav1.GetControllerOf(inst)
	if owner != nil && owner.Kind == "Installation" {
		opts.OwnerUID = owner.UID
	}
	if err := c.List(ctx, list, opts); err != nil {
		return nil, fmt.Errorf("list siblings: %w", err)
	}
	var out []*lsv1alpha1.Installation
	for i := range list.Items {
		s := &list.Items[i]
		if s.UID == inst.UID || IsRoot(s) != IsRoot(inst) {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// predecessors returns the siblings whose exports inst imports.
func predecessors(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) ([]*lsv1alpha1.Installation, error) {
	sibs, err := siblings(ctx, c, inst)
	if err != nil {
		return nil, err
	}
	var out []*lsv1alpha1.Installation
	for _, s := range sibs {
		if s.IsSuccessor(inst) {
			out = append(out, s)
		}
	}
	return out, nil
}

// successors returns the siblings that import what inst exports.
func successors(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) ([]*lsv1alpha1.Installation, error) {
	sibs, err := siblings(ctx, c, inst)
	if err != nil {
		return nil, err
	}
	var out []*lsv1alpha1.Installation
	for _, s := range sibs {
		if inst.IsSuccessor(s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// checkPredecessors requires every predecessor of inst to have finished and
// succeeded. A subinstallation's predecessor must have finished inst's job; a
// root's predecessor its own job, without a pending reconcile annotation.
// Unfinished predecessors are a normal error (wait and retry); a failed one is
// terminal.
func checkPredecessors(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) error {
	if inst.Spec.Optimization != nil && inst.Spec.Optimization.HasNoSiblingImports {
		return nil
	}
	preds, err := predecessors(ctx, c, inst)
	if err != nil {
		return err
	}
	var waiting []string
	for _, p := range preds {
		switch {
		case !predecessorFinished(inst, p):
			waiting = append(waiting, p.Name)
		case p.Status.InstallationPhase != lsv1alpha1.InstallationPhases.Succeeded:
			return terminalErrorf("PredecessorFailed", "predecessor %s is %s", p.Name, p.Status.InstallationPhase)
		}
	}
	if len(waiting) > 0 {
		sort.Strings(waiting)
		return fmt.Errorf("waiting for predecessors to finish: %s", strings.Join(waiting, ", "))
	}
	return nil
}

func predecessorFinished(inst, p *lsv1alpha1.Installation) bool {
	if IsRoot(inst) {
		return p.Status.JobID == p.Status.JobIDFinished && p.Status.JobID != "" && !hasOperation(p, lsv1alpha1.ReconcileOperation)
	}
	return p.Status.JobIDFinished == inst.Status.JobID
}

// dependentsOf returns the names of the successors of inst, for
// status.dependentsToTrigger.
func dependentsOf(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) ([]lsv1alpha1.DependentToTrigger, error) {
	succ, err := successors(ctx, c, inst)
	if err != nil {
		return nil, err
	}
	var out []lsv1alpha1.DependentToTrigger
	for _, s := range succ {
		out = append(out, lsv1alpha1.DependentToTrigger{Name: s.Name})
	}
	return out, nil
}

// keyOf is the key of obj.
func keyOf(obj metav1.Object) types.NamespacedName {
	return types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
}
