package action

import (
	"context"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
)

// Progress is how far a run is, for a progress line (Configuration.Progress).
type Progress struct {
	// Steps is how many reconcile steps ran.
	Steps int
	// Elapsed is how far the virtual clock has advanced since the run began.
	Elapsed time.Duration
	// roots counts the roots the run is about, and those finished.
	roots func() (finished, total int)
}

// Roots counts the root installations the run is about whose job has
// finished, and all of them. It reads the simulation: call it only when the
// line is shown.
func (p Progress) Roots() (finished, total int) {
	if p.roots == nil {
		return 0, 0
	}
	return p.roots()
}

// withProgress sets opts.Progress to report to the configuration's Progress,
// when there is one.
func (ss *session) withProgress(ctx context.Context, opts RunOptions, roots []landscape.ObjectRef) RunOptions {
	report := ss.cfg.Progress
	if report == nil {
		return opts
	}
	start, c := ss.engine.Config().Clock.Now(), ss.cluster()
	opts.Progress = func(steps int, now time.Time) {
		report(Progress{Steps: steps, Elapsed: now.Sub(start), roots: func() (int, int) {
			return finishedRoots(ctx, c, roots), len(roots)
		}})
	}
	return opts
}

// finishedRoots counts the objects of roots that have finished (or are
// gone), as the assessment would judge them, without walking their trees.
func finishedRoots(ctx context.Context, c *fakecluster.Cluster, roots []landscape.ObjectRef) int {
	n := 0
	for _, ref := range roots {
		obj, err := newObject(c, ref.Kind)
		if err != nil {
			continue
		}
		err = c.Get(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, obj)
		if apierrors.IsNotFound(err) {
			n++ // gone
		}
		if err != nil {
			continue
		}
		outcome := OutcomeUnfinished
		if inst, ok := obj.(*lsv1alpha1.Installation); ok {
			outcome = rootOutcome(inst)
		} else {
			st, hasJob := flow.JobStatusOf(obj)
			outcome = objectOutcome(obj, st, hasJob)
		}
		if outcome != OutcomeUnfinished {
			n++
		}
	}
	return n
}
