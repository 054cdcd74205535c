package action

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/engine/installation"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// Outcome sums up where a root installation ended.
type Outcome string

// The outcomes of a root installation, from best to worst for exit codes.
const (
	OutcomeSucceeded  Outcome = "Succeeded"
	OutcomeGone       Outcome = "Gone"
	OutcomeFailed     Outcome = "Failed"
	OutcomeUnfinished Outcome = "Unfinished"
)

// RootState is the outcome of one object a command is about: a root
// installation, a stand-alone Execution or DeployItem, or an object it
// deleted.
type RootState struct {
	// Kind is the object's kind, e.g. Installation.
	Kind    string
	Key     types.NamespacedName
	Phase   string
	Outcome Outcome
	// Sub says the object is a subinstallation (one a command deleted).
	Sub bool
	// RetryFails says that its deletion failed in a way every retry
	// repeats, which a hint explains (hints_deadend.go).
	RetryFails bool
}

// Unfinished is an object whose job has not finished, and why.
type Unfinished struct {
	Ref landscape.ObjectRef
	Why string
}

// Assessment is where the roots of a command ended.
type Assessment struct {
	Roots []RootState
	// Unfinished lists the unfinished objects in the trees of unfinished
	// roots, deploy items first: those are usually the cause.
	Unfinished []Unfinished
	// Hints say, for the deploy items of failed roots whose readiness check
	// or exports timed out, what a simulated cluster does not do and how to
	// make the check pass.
	Hints []string
}

// Worst is the worst outcome among the roots: Unfinished, then Failed, then
// Succeeded (Gone counts as Succeeded). No roots means Succeeded.
func (a Assessment) Worst() Outcome {
	worst := OutcomeSucceeded
	for _, r := range a.Roots {
		switch {
		case r.Outcome == OutcomeUnfinished:
			return OutcomeUnfinished
		case r.Outcome == OutcomeFailed:
			worst = OutcomeFailed
		}
	}
	return worst
}

// Assess reads where each root installation in roots ended.
func Assess(ctx context.Context, c *fakecluster.Cluster, roots []types.NamespacedName) (Assessment, error) {
	refs := make([]landscape.ObjectRef, len(roots))
	for i, key := range roots {
		refs[i] = landscape.ObjectRef{Kind: "Installation", Namespace: key.Namespace, Name: key.Name}
	}
	return AssessObjects(ctx, c, refs)
}

// AssessObjects reads where each object of refs ended: root installations
// as Assess does, other kinds as assessOther does. Without the pending work
// of the simulation it cannot say when an unfinished deploy item will move
// on; the actions use Pending.AssessObjects.
func AssessObjects(ctx context.Context, c *fakecluster.Cluster, refs []landscape.ObjectRef) (Assessment, error) {
	return Pending{}.AssessObjects(ctx, c, refs)
}

// AssessObjects is AssessObjects saying for each unfinished deploy item
// what it waits for, from the pending work p.
func (p Pending) AssessObjects(ctx context.Context, c *fakecluster.Cluster, refs []landscape.ObjectRef) (Assessment, error) {
	var a Assessment
	for _, ref := range refs {
		if ref.Kind != "Installation" {
			if err := p.assessOther(ctx, c, ref, &a); err != nil {
				return a, err
			}
			continue
		}
		key := types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}
		inst := &lsv1alpha1.Installation{}
		err := c.Get(ctx, key, inst)
		if apierrors.IsNotFound(err) {
			a.Roots = append(a.Roots, RootState{Kind: ref.Kind, Key: key, Outcome: OutcomeGone})
			continue
		}
		if err != nil {
			return a, err
		}
		if !dataflow.IsRoot(inst) {
			// A subinstallation a command deleted: only marked, it waits
			// for a job of its parent.
			if err := p.assessOther(ctx, c, ref, &a); err != nil {
				return a, err
			}
			a.Roots[len(a.Roots)-1].Sub = true
			continue
		}
		st := RootState{Kind: ref.Kind, Key: key, Phase: string(inst.Status.InstallationPhase), Outcome: rootOutcome(inst)}
		if st.Outcome == OutcomeFailed {
			hints, deadEnds, err := hintsIn(ctx, c, inst, inst, p.Explained, p.Clusters)
			if err != nil {
				return a, err
			}
			a.Hints = append(append(a.Hints, hints...), deadEnds...)
			st.RetryFails = len(deadEnds) > 0
		}
		a.Roots = append(a.Roots, st)
		if st.Outcome == OutcomeUnfinished {
			items, others, err := p.unfinishedIn(ctx, c, inst)
			if err != nil {
				return a, err
			}
			a.Unfinished = append(append(a.Unfinished, items...), others...)
		}
	}
	return a, nil
}

func rootOutcome(inst *lsv1alpha1.Installation) Outcome {
	st := inst.Status
	switch {
	case st.JobID != st.JobIDFinished || flow.HasOperation(inst, lsv1alpha1.ReconcileOperation):
		return OutcomeUnfinished
	case inst.DeletionTimestamp != nil && !st.InstallationPhase.IsDeletion():
		// Its deletion job starts when the job it was deleted in has
		// finished (Landscaper's isCreateNewJobID): not run yet.
		return OutcomeUnfinished
	case st.InstallationPhase == lsv1alpha1.InstallationPhases.Succeeded:
		return OutcomeSucceeded
	case st.InstallationPhase.IsFailed():
		return OutcomeFailed
	}
	return OutcomeUnfinished
}

// unfinishedIn walks the tree of inst and returns its unfinished deploy items
// and its other unfinished objects.
func (p Pending) unfinishedIn(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation) (items, others []Unfinished, err error) {
	defer func() {
		if st := inst.Status; err == nil && (st.JobID != st.JobIDFinished || st.JobID == "" ||
			dataflow.IsRoot(inst) && rootOutcome(inst) == OutcomeUnfinished) {
			why := whyInstallation(inst)
			var other *lsv1alpha1.Installation
			if other, err = installation.WaitsForEachOther(ctx, c, inst); err != nil {
				return
			}
			if other != nil {
				why += fmt.Sprintf("; Installation %s/%s imports its exports and its job waits in Init for this deletion job to finish: "+
					"they wait for each other, as in Landscaper (give %s/%s the annotation %s: \"true\", e.g. in its file, and reconcile it)",
					other.Namespace, other.Name, inst.Namespace, inst.Name, lsv1alpha1.DeleteIgnoreSuccessors)
			}
			if other, err = installation.DeletionWaitingFor(ctx, c, inst); err != nil {
				return
			}
			if other != nil {
				why += fmt.Sprintf("; its predecessor's deletion job waits for this installation to be gone: they wait for each other, "+
					"as in Landscaper (give %s/%s the annotation %s: \"true\", e.g. in its file, and reconcile it)",
					other.Namespace, other.Name, lsv1alpha1.DeleteIgnoreSuccessors)
			}
			others = append(others, Unfinished{Ref: landscape.ObjectRef{Kind: "Installation", Namespace: inst.Namespace, Name: inst.Name}, Why: why})
		}
	}()
	subs := &lsv1alpha1.InstallationList{}
	if err := c.List(ctx, subs, fakecluster.ListOptions{Namespace: inst.Namespace, OwnerUID: inst.UID}); err != nil {
		return nil, nil, err
	}
	for i := range subs.Items {
		si, so, err := p.unfinishedIn(ctx, c, &subs.Items[i])
		if err != nil {
			return nil, nil, err
		}
		items, others = append(items, si...), append(others, so...)
	}
	exec := &lsv1alpha1.Execution{}
	err = c.Get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}, exec)
	if apierrors.IsNotFound(err) {
		return items, others, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if exec.Status.JobID != exec.Status.JobIDFinished {
		others = append(others, Unfinished{Ref: landscape.ObjectRef{Kind: "Execution", Namespace: exec.Namespace, Name: exec.Name},
			Why: fmt.Sprintf("phase %s, waiting for its deploy items", orNone(string(exec.Status.ExecutionPhase)))})
	}
	dis, err := itemsOf(ctx, c, exec)
	if err != nil {
		return nil, nil, err
	}
	for i := range dis {
		di := &dis[i]
		if di.Status.JobID != di.Status.JobIDFinished {
			items = append(items, Unfinished{Ref: landscape.ObjectRef{Kind: "DeployItem", Namespace: di.Namespace, Name: di.Name}, Why: p.whyDeployItem(di)})
		}
	}
	return items, others, nil
}

func whyInstallation(inst *lsv1alpha1.Installation) string {
	st := inst.Status
	switch {
	case st.JobID == st.JobIDFinished && flow.HasOperation(inst, lsv1alpha1.ReconcileOperation):
		return "a reconcile annotation is waiting to start a new job"
	case st.JobID == "" && dataflow.IsRoot(inst):
		return "no job has started on it"
	case st.JobID == st.JobIDFinished && inst.DeletionTimestamp != nil && !st.InstallationPhase.IsDeletion():
		return fmt.Sprintf("phase %s, marked for deletion: its deletion job starts next, the job it was deleted in has finished",
			orNone(string(st.InstallationPhase)))
	case st.LastError != nil:
		return fmt.Sprintf("phase %s, last error: %s", orNone(string(st.InstallationPhase)), errorMessage(st.LastError))
	}
	return fmt.Sprintf("phase %s, waiting for its subinstallations and execution", orNone(string(st.InstallationPhase)))
}

func orNone(phase string) string {
	if phase == "" {
		return "(none)"
	}
	return phase
}

// errorMessage is the message of a lastError where it follows "last error: "
// on one line: one that starts with helm's log lines loses its leading
// newline.
func errorMessage(e *lsv1alpha1.Error) string {
	return strings.TrimLeft(e.Message, "\n")
}
