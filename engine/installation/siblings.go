package installation

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// siblings returns the other installations with the same parent: for a
// subinstallation the parent's other subinstallations, for a root every other
// root in the namespace without the encompassed-by label. It lists them all: use related for predecessors and
// successors.
func siblings(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) ([]*lsv1alpha1.Installation, error) {
	return siblingsWhere(ctx, c, inst, nil, false)
}

// siblingsWhere returns the siblings of inst, narrowed by the field match f:
// copies, or with shared true the stored objects, which must not be changed.
func siblingsWhere(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation, f *fakecluster.FieldMatch, shared bool) ([]*lsv1alpha1.Installation, error) {
	opts := fakecluster.ListOptions{Namespace: inst.Namespace, Field: f}
	owner := dataflow.ParentRef(inst)
	if owner != nil {
		opts.OwnerUID = owner.UID
	}
	found, err := fakecluster.Select[*lsv1alpha1.Installation](ctx, c, &lsv1alpha1.InstallationList{}, opts, shared)
	if err != nil {
		return nil, fmt.Errorf("list siblings: %w", err)
	}
	var out []*lsv1alpha1.Installation
	for _, s := range found {
		if s.UID == inst.UID || dataflow.IsRoot(s) != dataflow.IsRoot(inst) {
			continue
		}
		if owner != nil && dataflow.ParentRef(s).UID != owner.UID {
			continue
		}
		// Landscaper's root siblings are the roots without the
		// encompassed-by label (GetRootInstallations).
		if _, labelled := s.Labels[lsv1alpha1.EncompassedByLabel]; owner == nil && labelled {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// related returns the siblings of inst found under any of refs in index,
// each once, sorted by name. They are the stored objects (see
// fakecluster.Select): read them, never change them.
func related(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation, index string, refs []string) ([]*lsv1alpha1.Installation, error) {
	seen := map[string]*lsv1alpha1.Installation{}
	for _, ref := range refs {
		sibs, err := siblingsWhere(ctx, c, inst, &fakecluster.FieldMatch{Index: index, Value: scope(inst, ref)}, true)
		if err != nil {
			return nil, err
		}
		for _, s := range sibs {
			seen[s.Name] = s
		}
	}
	out := make([]*lsv1alpha1.Installation, 0, len(seen))
	for _, name := range flow.SortedKeys(seen) {
		out = append(out, seen[name])
	}
	return out, nil
}

// predecessors returns the siblings that export what inst imports. As in
// Landscaper (FetchPredecessorsFromInstallation drops the error of its
// duplicate check), there are none when two other siblings export the same
// data object or target, whatever inst imports.
func predecessors(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) ([]*lsv1alpha1.Installation, error) {
	dup, err := othersShareExports(ctx, c, inst)
	if err != nil || dup {
		return nil, err
	}
	return related(ctx, c, inst, exportsIndex, importRefs(inst))
}

// othersShareExports reports whether two siblings of inst, other than inst,
// export the same data object or target. The cluster counts the shared
// exports of each scope; those that only inst and one other sibling export
// do not count here. It visits only the exporters of inst's own exports.
func othersShareExports(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) (bool, error) {
	n, err := c.SharedValues(inst, exportsIndex, scope(inst, ""))
	if err != nil || n == 0 {
		return false, err
	}
	seen := map[string]bool{}
	for _, ref := range exportRefs(inst) {
		if seen[ref] {
			continue
		}
		seen[ref] = true
		others, err := siblingsWhere(ctx, c, inst, &fakecluster.FieldMatch{Index: exportsIndex, Value: scope(inst, ref)}, true)
		if err != nil {
			return false, err
		}
		if len(others) == 1 {
			n--
		}
	}
	return n > 0, nil
}

// successors returns the siblings that import what inst exports, as
// Landscaper's Installation.IsSuccessor decides.
func successors(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) ([]*lsv1alpha1.Installation, error) {
	cands, err := related(ctx, c, inst, importsIndex, exportRefs(inst))
	if err != nil {
		return nil, err
	}
	var out []*lsv1alpha1.Installation
	for _, s := range cands {
		if inst.IsSuccessor(s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// notCompletedDependents is the reason of Landscaper's predecessor errors.
const notCompletedDependents = "NotCompletedDependents"

// checkPredecessors requires every predecessor of inst to have finished and
// succeeded, as Landscaper's init does (unless
// spec.optimization.hasNoSiblingImports). A subinstallation's predecessor
// must have finished inst's job; a root's predecessor its own job, without a
// pending reconcile annotation. An unfinished predecessor is a normal error
// (wait and retry; fatal with waitFatal, as in Completing), one that did not
// succeed is fatal. The first predecessor by name is named.
func checkPredecessors(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation, waitFatal bool) error {
	if inst.Spec.Optimization != nil && inst.Spec.Optimization.HasNoSiblingImports {
		return nil
	}
	preds, err := predecessors(ctx, c, inst)
	if err != nil {
		return reconcile.Fatal(reconcile.Wrap(err, "init", "FetchPredecessors"))
	}
	for _, p := range preds {
		if msg := unfinished(inst, p); msg != "" {
			err := reconcile.Wrap(notCompleted(msg), "init", "AllPredecessorsFinished")
			if waitFatal {
				return reconcile.Fatal(err)
			}
			return err
		}
	}
	for _, p := range preds {
		if p.Status.InstallationPhase != lsv1alpha1.InstallationPhases.Succeeded {
			msg := fmt.Sprintf("depending on installation %q which is not succeeded", keyOf(p).String())
			return reconcile.Fatal(reconcile.Wrap(notCompleted(msg), "init", "AllPredecessorsSucceeded"))
		}
	}
	return nil
}

// notCompleted is Landscaper's NotCompletedDependents error.
func notCompleted(msg string) error {
	return reconcile.NewError(notCompletedDependents, notCompletedDependents, msg, lsv1alpha1.ErrorForInfoOnly)
}

// unfinished says why predecessor p has not finished for inst, or "".
func unfinished(inst, p *lsv1alpha1.Installation) string {
	notFinished := fmt.Sprintf("depending on installation %q which not finished current job %q", keyOf(p).String(), inst.Status.JobID)
	if !dataflow.IsRoot(inst) {
		if p.Status.JobIDFinished != inst.Status.JobID {
			return notFinished
		}
		return ""
	}
	switch {
	case flow.HasOperation(p, lsv1alpha1.ReconcileOperation):
		return fmt.Sprintf("depending on installation %q which has reconcile annotation", keyOf(p).String())
	case p.Status.JobID != p.Status.JobIDFinished:
		return notFinished
	}
	return ""
}

// dependentsOf returns the successors of inst for
// status.dependentsToTrigger, in the order Landscaper lists siblings (roots
// by name, subinstallations as the parent's status.subInstCache has them).
// An installation with spec.optimization.hasNoSiblingExports has none.
func dependentsOf(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) ([]lsv1alpha1.DependentToTrigger, error) {
	if inst.Spec.Optimization != nil && inst.Spec.Optimization.HasNoSiblingExports {
		return nil, nil
	}
	succ, err := successors(ctx, c, inst)
	if err != nil {
		return nil, err
	}
	if owner := dataflow.ParentRef(inst); owner != nil && len(succ) > 1 {
		parent := &lsv1alpha1.Installation{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: owner.Name}, parent); err == nil {
			orderByCache(succ, parent.Status.SubInstCache)
		}
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

// WaitsForEachOther returns the sibling that inst's deletion waits for while
// that sibling's job waits for inst: inst is in InitDelete because its first
// successor (by name, as checkSuccessor looks) still exists, and that
// successor's job waits in Init for inst as its predecessor, which only a
// finished deletion job of inst would end. Landscaper has no way out of this
// either; nil when inst is not in such a wait.
func WaitsForEachOther(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) (*lsv1alpha1.Installation, error) {
	st := inst.Status
	if inst.DeletionTimestamp == nil || st.InstallationPhase != lsv1alpha1.InstallationPhases.InitDelete || st.JobID == st.JobIDFinished ||
		inst.Annotations[lsv1alpha1.DeleteIgnoreSuccessors] == "true" ||
		(inst.Spec.Optimization != nil && inst.Spec.Optimization.HasNoSiblingExports) {
		return nil, nil
	}
	succ, err := successors(ctx, c, inst)
	if err != nil || len(succ) == 0 {
		return nil, err
	}
	s := succ[0]
	if s.Status.InstallationPhase != lsv1alpha1.InstallationPhases.Init || s.Status.JobID == s.Status.JobIDFinished ||
		(s.Spec.Optimization != nil && s.Spec.Optimization.HasNoSiblingImports) || unfinished(s, inst) == "" {
		return nil, nil
	}
	preds, err := predecessors(ctx, c, s)
	if err != nil {
		return nil, err
	}
	for _, p := range preds {
		if p.UID == inst.UID {
			return s.DeepCopy(), nil
		}
	}
	return nil, nil
}

// DeletionWaitingFor returns the predecessor of inst whose deletion inst
// keeps waiting while inst's job waits for it (see WaitsForEachOther), or nil.
func DeletionWaitingFor(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) (*lsv1alpha1.Installation, error) {
	if inst.Status.InstallationPhase != lsv1alpha1.InstallationPhases.Init || inst.Status.JobID == inst.Status.JobIDFinished {
		return nil, nil
	}
	preds, err := predecessors(ctx, c, inst)
	if err != nil {
		return nil, err
	}
	for _, p := range preds {
		other, err := WaitsForEachOther(ctx, c, p)
		if err != nil {
			return nil, err
		}
		if other != nil && other.UID == inst.UID {
			return p.DeepCopy(), nil
		}
	}
	return nil, nil
}
