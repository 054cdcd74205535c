package action

import (
	"context"
	"fmt"
	"runtime"
	"sort"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/reconcile"
	"github.com/lscli/lscli/state"
)

// Run is the result of an action that runs the simulation: how the run went,
// where the roots it is about ended, and every object afterwards.
type Run struct {
	// Run says how many steps ran, the virtual time and why it stopped.
	Run reconcile.RunResult
	// Assessment is where the roots the action is about ended.
	Assessment Assessment
	// Objects are every object of the saved simulation, sorted by kind,
	// namespace and name, for reading only; nil when Stored holds them.
	Objects []fakecluster.Object
	// Stored, with Configuration.StoredObjects, holds every object of the
	// saved simulation as the state file stores it, in the API server's
	// order; Objects is nil then.
	Stored []state.StoredObject
	// Scheduled are the automatic reconciles (spec.automaticReconcile) the
	// run left for later, earliest first: a run does not wait for them unless
	// --until reaches them.
	Scheduled []reconcile.Timer
	// FakedTypes are the deploy item types that no deployer of Landscaper's
	// serves here and lscli's fake deployer served in this run, sorted.
	FakedTypes []string
	// TargetSyncs are the simulation's TargetSyncs, sorted by namespace and
	// name: lscli runs no target sync controller, so they create no Targets.
	TargetSyncs []lsv1alpha1.TargetSync
	// Idle, when set, says why the action found nothing to do: it changed
	// nothing and ran nothing (e.g. an interrupt of a finished job).
	Idle string
	// Explanations, when not nil, has lscli's own texts of the errors that
	// failed objects in the run and that their status has in Landscaper's
	// words (see reconcile.Explain); the report shows them. Nil when there
	// are none.
	Explanations *reconcile.Explanations
	// Warnings are lscli's warnings about the input that the run found,
	// each once, in the order found (see reconcile.Warnings): what
	// Landscaper does without a word, such as YAML documents of a
	// blueprint file that it ignores.
	Warnings []string
}

// ExitCode is the exit code the result stands for: ExitOK when every root
// is Succeeded (or gone), ExitFailed when one Failed or DeleteFailed,
// ExitUnfinished when one has not finished.
func (r *Run) ExitCode() int {
	switch r.Assessment.Worst() {
	case OutcomeUnfinished:
		return ExitUnfinished
	case OutcomeFailed:
		return ExitFailed
	}
	return ExitOK
}

// idleRun reports on roots without changing or running anything.
func idleRun(ctx context.Context, ss *session, roots []landscape.ObjectRef, why string) (*Run, error) {
	assessment, err := ss.pending().AssessObjects(ctx, ss.cluster(), roots)
	if err != nil {
		return nil, fmt.Errorf("assess: %w", err)
	}
	now := ss.engine.Config().Clock.Now()
	return &Run{Run: reconcile.RunResult{Start: now, End: now, Reason: reconcile.StopFixedPoint},
		Assessment: assessment, Objects: ss.cluster().Objects(), Idle: why}, nil
}

// runAndSave runs the simulation of ss to its end (or the bounds of opts),
// assesses the objects roots names (see AssessObjects) and saves the state.
func runAndSave(ctx context.Context, ss *session, roots []landscape.ObjectRef, opts RunOptions) (*Run, error) {
	res, err := ss.engine.Run(ctx, ss.withProgress(ctx, opts, roots))
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	assessment, err := ss.pending().AssessObjects(ctx, ss.cluster(), roots)
	if err != nil {
		return nil, fmt.Errorf("assess: %w", err)
	}
	syncs := &lsv1alpha1.TargetSyncList{}
	if err := ss.cluster().List(ctx, syncs, fakecluster.ListOptions{}); err != nil {
		return nil, fmt.Errorf("list target syncs: %w", err)
	}
	sort.Slice(syncs.Items, func(i, j int) bool {
		a, b := syncs.Items[i], syncs.Items[j]
		return a.Namespace < b.Namespace || a.Namespace == b.Namespace && a.Name < b.Name
	})
	explained, err := currentExplanations(ctx, ss.cluster(), ss.engine.Explanations())
	if err != nil {
		return nil, err
	}
	objs, err := ss.save()
	if err != nil {
		return nil, fmt.Errorf("save state: %w", err)
	}
	run := &Run{Run: res, Assessment: assessment, Objects: objs,
		Scheduled: ss.engine.Scheduled(), FakedTypes: ss.framework.FakedTypes(), TargetSyncs: syncs.Items,
		Explanations: explained, Warnings: ss.engine.Warnings()}
	if ss.cfg.StoredObjects {
		// The simulation is saved and nothing reads it any more: its
		// memory, and the copies, go before the file is read back, so
		// that reading it does not raise the peak.
		run.Objects = nil
		ss.dropSimulation()
		runtime.GC()
		if run.Stored, err = ss.storedObjects(); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// currentExplanations drops from x the explanations of lastErrors that are
// no longer there (the object went on, or is gone), and returns x, or nil
// when none is left.
func currentExplanations(ctx context.Context, c *fakecluster.Cluster, x *reconcile.Explanations) (*reconcile.Explanations, error) {
	if x.Len() == 0 {
		return nil, nil
	}
	var err error
	x.Retain(func(e reconcile.Explanation) bool {
		var obj fakecluster.Object
		switch e.Kind {
		case "Installation":
			obj = &lsv1alpha1.Installation{}
		case "Execution":
			obj = &lsv1alpha1.Execution{}
		default:
			return false
		}
		if gerr := c.Get(ctx, e.Key, obj); gerr != nil {
			if !apierrors.IsNotFound(gerr) && err == nil {
				err = fmt.Errorf("get %s %s: %w", e.Kind, e.Key, gerr)
			}
			return false
		}
		var jobID string
		var le *lsv1alpha1.Error
		switch o := obj.(type) {
		case *lsv1alpha1.Installation:
			jobID, le = o.Status.JobID, o.Status.LastError
		case *lsv1alpha1.Execution:
			jobID, le = o.Status.JobID, o.Status.LastError
		}
		return le != nil && jobID == e.JobID && le.Message == e.Message
	})
	if err != nil {
		return nil, err
	}
	if x.Len() == 0 {
		return nil, nil
	}
	return x, nil
}
