package action

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
)

// assessOther adds where the object ref names ended to a: an Execution or a
// DeployItem by its job, like a root installation; any other kind (an
// object a command deleted) is Gone, or Unfinished while it waits for
// finalizers.
func (p Pending) assessOther(ctx context.Context, c *fakecluster.Cluster, ref landscape.ObjectRef, a *Assessment) error {
	obj, err := newObject(c, ref.Kind)
	if err != nil {
		return err
	}
	key := types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}
	err = c.Get(ctx, key, obj)
	if apierrors.IsNotFound(err) {
		a.Roots = append(a.Roots, RootState{Kind: ref.Kind, Key: key, Outcome: OutcomeGone})
		return nil
	}
	if err != nil {
		return err
	}
	st, hasJob := flow.JobStatusOf(obj)
	state := RootState{Kind: ref.Kind, Key: key, Phase: st.Phase, Outcome: objectOutcome(obj, st, hasJob)}
	if state.Outcome == OutcomeFailed {
		hints, err := p.standaloneHints(ctx, c, obj)
		if err != nil {
			return err
		}
		dead, err := standaloneDeadEnds(ctx, c, p.Clusters, obj) // hints_deadend.go
		a.Hints = append(append(a.Hints, hints...), dead...)
		state.RetryFails = len(dead) > 0
		a.Roots = append(a.Roots, state)
		return err
	}
	a.Roots = append(a.Roots, state)
	if state.Outcome != OutcomeUnfinished {
		return nil
	}
	items, others, err := p.unfinishedObject(ctx, c, ref, obj, st, hasJob)
	a.Unfinished = append(append(a.Unfinished, items...), others...)
	return err
}

// standaloneHints are the hints about a failed stand-alone DeployItem, or
// the deploy items of a failed stand-alone Execution, as for the items of
// an installation.
func (p Pending) standaloneHints(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object) ([]string, error) {
	switch o := obj.(type) {
	case *lsv1alpha1.DeployItem:
		return itemHints(ctx, c, p.Clusters, nil, []lsv1alpha1.DeployItem{*o})
	case *lsv1alpha1.Execution:
		dis, err := itemsOf(ctx, c, o)
		if err != nil {
			return nil, err
		}
		return itemHints(ctx, c, p.Clusters, nil, dis)
	}
	return nil, nil
}

// itemsOf lists the deploy items exec manages.
func itemsOf(ctx context.Context, c *fakecluster.Cluster, exec *lsv1alpha1.Execution) ([]lsv1alpha1.DeployItem, error) {
	dis := &lsv1alpha1.DeployItemList{}
	sel := labels.SelectorFromSet(labels.Set{lsv1alpha1.ExecutionManagedByLabel: exec.Name})
	if err := c.List(ctx, dis, fakecluster.ListOptions{Namespace: exec.Namespace, LabelSelector: sel}); err != nil {
		return nil, fmt.Errorf("list deploy items of execution %s/%s: %w", exec.Namespace, exec.Name, err)
	}
	return dis.Items, nil
}

// newObject returns an empty object of kind.
func newObject(c *fakecluster.Cluster, kind string) (fakecluster.Object, error) {
	for _, gv := range []schema.GroupVersion{lsv1alpha1.SchemeGroupVersion, corev1.SchemeGroupVersion} {
		if o, err := c.Scheme().New(gv.WithKind(kind)); err == nil {
			if obj, ok := o.(fakecluster.Object); ok {
				return obj, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown kind %s", kind)
}

// objectOutcome is where obj ended: objects with a job as root
// installations do; others are Succeeded while they stand and Unfinished
// while they wait for finalizers.
func objectOutcome(obj fakecluster.Object, st flow.JobStatus, hasJob bool) Outcome {
	switch {
	case !hasJob && obj.GetDeletionTimestamp() != nil:
		return OutcomeUnfinished
	case !hasJob:
		return OutcomeSucceeded
	case st.JobID != st.JobIDFinished || flow.HasOperation(obj, lsv1alpha1.ReconcileOperation):
		return OutcomeUnfinished
	case obj.GetDeletionTimestamp() != nil && !isDeletionPhase(st.Phase):
		return OutcomeUnfinished // its deletion has not run (a Failed job was the one before)
	case st.Phase == "Succeeded":
		return OutcomeSucceeded
	case isFailed(st.Phase):
		return OutcomeFailed
	}
	return OutcomeUnfinished
}

func isFailed(phase string) bool { return phase == "Failed" || phase == "DeleteFailed" }

// isDeletionPhase reports whether phase is one of a deletion job, of an
// Installation, Execution or DeployItem.
func isDeletionPhase(phase string) bool {
	switch phase {
	case "InitDelete", "TriggerDelete", "Deleting", "DeleteFailed":
		return true
	}
	return false
}

// unfinishedObject says why obj has not finished: for an Execution, its
// unfinished deploy items first.
func (p Pending) unfinishedObject(ctx context.Context, c *fakecluster.Cluster, ref landscape.ObjectRef, obj fakecluster.Object,
	st flow.JobStatus, hasJob bool) (items, others []Unfinished, err error) {
	if exec, ok := obj.(*lsv1alpha1.Execution); ok {
		if items, err = p.unfinishedItems(ctx, c, exec); err != nil {
			return nil, nil, err
		}
	}
	var why string
	switch di, isItem := obj.(*lsv1alpha1.DeployItem); {
	case !hasJob:
		why = "marked for deletion, it waits for its finalizers: " + strings.Join(obj.GetFinalizers(), ", ")
	case st.JobID == st.JobIDFinished && obj.GetDeletionTimestamp() != nil:
		why = "marked for deletion, it waits for a job" + ownerHint(obj) + deletedExecutionHint(obj)
	case st.JobID == st.JobIDFinished && flow.HasOperation(obj, lsv1alpha1.ReconcileOperation):
		why = "a reconcile annotation is waiting to start a new job" + ownerHint(obj)
	case st.JobID == st.JobIDFinished:
		why = "no job has started on it"
	case isItem:
		return append(items, Unfinished{Ref: ref, Why: p.whyDeployItem(di)}), nil, nil
	default:
		why = fmt.Sprintf("phase %s, waiting for its deploy items", orNone(st.Phase))
	}
	return items, []Unfinished{{Ref: ref, Why: why}}, nil
}

// ownerHint tells what starts the job of an object that has an owner.
func ownerHint(obj fakecluster.Object) string {
	if ref := fakecluster.ControllerOf(obj); ref != nil {
		return fmt.Sprintf(" of its %s %s", ref.Kind, ref.Name)
	}
	return ""
}

// deletedExecutionHint says, for a marked Execution that an Installation
// controls, what that installation's next job does: it deletes the
// Execution, then cannot finish, as Landscaper's handlePhaseProgressing reads
// the Execution status.executionReference names and retries the not-found
// error, and no new job starts while one runs (isCreateNewJobID).
func deletedExecutionHint(obj fakecluster.Object) string {
	if _, ok := obj.(*lsv1alpha1.Execution); !ok {
		return ""
	}
	if ref := fakecluster.ControllerOf(obj); ref == nil || ref.Kind != "Installation" {
		return ""
	}
	return ", which deletes it and then never finishes (Progressing without its Execution, as in Landscaper)"
}

// unfinishedItems lists the unfinished deploy items of exec.
func (p Pending) unfinishedItems(ctx context.Context, c *fakecluster.Cluster, exec *lsv1alpha1.Execution) ([]Unfinished, error) {
	dis, err := itemsOf(ctx, c, exec)
	if err != nil {
		return nil, err
	}
	var out []Unfinished
	for i := range dis {
		di := &dis[i]
		if di.Status.JobID != di.Status.JobIDFinished {
			out = append(out, Unfinished{Ref: landscape.ObjectRef{Kind: "DeployItem", Namespace: di.Namespace, Name: di.Name}, Why: p.whyDeployItem(di)})
		}
	}
	return out, nil
}
