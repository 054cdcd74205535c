package cmd

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/reconcile"
)

// runAndReport runs the simulation to its end (or the bounds of --until and
// --max-steps), saves the state, prints the objects and returns the error
// carrying the exit code for roots: 0 all Succeeded (or gone), 3 one Failed,
// 4 one unfinished.
func (f *factory) runAndReport(ctx context.Context, ss *session, roots []types.NamespacedName) error {
	s := ss.settings
	res, err := ss.engine.Run(ctx, reconcile.RunOptions{Until: s.Until, MaxSteps: s.MaxSteps})
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	assessment, err := engine.Assess(ctx, ss.cluster(), roots)
	if err != nil {
		return fmt.Errorf("assess: %w", err)
	}
	if err := ss.save(); err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	if err := f.printObjects(s, ss.cluster().Objects()); err != nil {
		return err
	}
	f.summarize(res, assessment)
	switch assessment.Worst() {
	case engine.OutcomeUnfinished:
		return silentExit(ExitUnfinished)
	case engine.OutcomeFailed:
		return silentExit(ExitFailed)
	}
	return nil
}

// summarize tells on ErrOut how the run went and, when it stopped early,
// what is unfinished and why.
func (f *factory) summarize(res reconcile.RunResult, a engine.Assessment) {
	elapsed := res.End.Sub(res.Start)
	counts := map[engine.Outcome]int{}
	for _, r := range a.Roots {
		counts[r.Outcome]++
	}
	var parts []string
	for _, o := range []engine.Outcome{engine.OutcomeSucceeded, engine.OutcomeFailed, engine.OutcomeUnfinished, engine.OutcomeGone} {
		if counts[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[o], strings.ToLower(string(o))))
		}
	}
	roots := "no root installations"
	if len(parts) > 0 {
		roots = "root installations: " + strings.Join(parts, ", ")
	}
	f.status("%d steps, virtual time +%s (now %s), %s", res.Steps, elapsed, res.End.Format("2006-01-02T15:04:05Z07:00"), roots)
	for _, r := range a.Roots {
		if r.Phase == "DeleteFailed" {
			f.status("hint: Installation %s is DeleteFailed: retry its deletion with 'lscli trigger %s'", r.Key, r.Key.Name)
		}
	}
	if a.Worst() != engine.OutcomeUnfinished {
		return
	}
	f.status("stopped: %s", stopText(res.Reason))
	for _, u := range a.Unfinished {
		f.status("  unfinished: %s: %s", u.Ref, u.Why)
	}
}

func stopText(r reconcile.StopReason) string {
	switch r {
	case reconcile.StopFixedPoint:
		return "nothing changes any more (fixed point), but not every job has finished"
	case reconcile.StopUntil:
		return "--until reached"
	case reconcile.StopMaxSteps:
		return "--max-steps reached"
	}
	return "no work left, but not every job has finished"
}
