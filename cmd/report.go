package cmd

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/reconcile"
	"github.com/lscli/lscli/state"
)

// report prints the objects of a run (narrowed to -n) as -o asks, tells on
// ErrOut how the run went, and returns the error carrying its exit code.
//
// When printing fails (a template that fails on these objects), the run has
// still happened and is saved: its summary and notes are told all the same,
// then the error, which is exit 1 (lscli could not print what was asked;
// the run's own outcome is in the summary).
func (f *factory) report(s *settings, run *action.Run) error {
	printErr := f.printRun(s, run)
	if run.Idle != "" {
		f.status("note: %s; nothing changed and nothing ran", run.Idle)
	} else {
		var explained []reconcile.Explanation
		if !treeOutput(s) {
			explained = slices.DeleteFunc(run.Explanations.All(), func(e reconcile.Explanation) bool {
				return s.Namespace != "" && e.Key.Namespace != s.Namespace
			})
		}
		f.summarize(run.Run, run.Assessment, explained)
		f.notes(run)
	}
	if printErr != nil {
		return fmt.Errorf("%w (the run is saved: 'lscli get' or 'lscli tree' shows its objects)", printErr)
	}
	return action.SilentExit(run.ExitCode())
}

// printRun prints the objects of run: from the lines of the state file
// when the action returned them (-o json, see runConfiguration), as get -o
// json prints them.
func (f *factory) printRun(s *settings, run *action.Run) error {
	if run.Stored == nil {
		return f.printObjects(s, run.Objects, run.Explanations)
	}
	stored := run.Stored
	if s.Namespace != "" {
		stored = slices.DeleteFunc(slices.Clone(stored), func(o state.StoredObject) bool { return o.Namespace != s.Namespace })
	}
	return output.ListStored(stored, s.Output, f.streams.Out)
}

// notes tells on ErrOut lscli's warnings about the input (reconcile.Warn),
// what a run left for later (automatic reconciles) and which deploy item
// types lscli faked because no deployer serves them, and that no target
// sync controller runs for the TargetSyncs.
func (f *factory) notes(run *action.Run) {
	for _, w := range run.Warnings {
		f.status("warning: %s", w)
	}
	for _, t := range run.Scheduled {
		f.status("next automatic reconcile of Installation %s/%s at %s", t.Namespace, t.Name, t.Due.Format(time.RFC3339))
	}
	if n := len(run.FakedTypes); n > 0 {
		them := "them"
		if n == 1 {
			them = "it"
		}
		f.status("note: no Landscaper deployer serves %s; lscli faked %s (--deployer TYPE=none for Landscaper's behaviour)",
			strings.Join(run.FakedTypes, ", "), them)
	}
	for _, ts := range run.TargetSyncs {
		// Landscaper's targetsync controller syncs Secrets, Shoots or both.
		var what []string
		if e := ts.Spec.SecretNameExpression; e != "" {
			what = append(what, fmt.Sprintf("one per Secret of its source namespace %s whose name matches %q", ts.Spec.SourceNamespace, e))
		}
		if e := ts.Spec.ShootNameExpression; e != "" {
			what = append(what, fmt.Sprintf("one per Shoot of its source namespace %s whose name matches %q", ts.Spec.SourceNamespace, e))
		}
		if len(what) == 0 {
			what = append(what, "none: it names neither secretNameExpression nor shootNameExpression")
		}
		f.status("note: lscli runs no target sync controller: TargetSync %s/%s creates no Targets (Landscaper's creates %s); "+
			"give the Targets it would create in the landscape", ts.Namespace, ts.Name, strings.Join(what, ", and "))
	}
}

// summarize tells on ErrOut how the run went and, when it stopped early,
// what is unfinished and why. explained are lscli's texts of errors whose
// status has Landscaper's words, for a report without the tree, which
// would show them under the errors (see output.TreeOptions.Explain).
func (f *factory) summarize(res reconcile.RunResult, a action.Assessment, explained []reconcile.Explanation) {
	elapsed := res.End.Sub(res.Start)
	f.status("%s, virtual time +%s (now %s), %s", plural(res.Steps, "step"), elapsed, res.End.Format("2006-01-02T15:04:05Z07:00"), outcomes(a))
	for _, e := range explained {
		f.status("lscli: %s", e.Text)
	}
	for _, r := range a.Roots {
		if r.Phase != "DeleteFailed" || r.Sub || r.RetryFails { // only its root retries a subinstallation; a hint says why a retry fails
			continue
		}
		if r.Kind == "" || r.Kind == "Installation" {
			f.status("hint: Installation %s is DeleteFailed: retry its deletion with 'lscli trigger %s'", r.Key, r.Key.Name)
		} else {
			f.status("hint: %s %s is DeleteFailed: retry its deletion with 'lscli trigger %s %s'", r.Kind, r.Key, strings.ToLower(r.Kind), r.Key.Name)
		}
	}
	for _, h := range a.Hints {
		f.status("hint: %s", h)
	}
	if a.Worst() != action.OutcomeUnfinished {
		return
	}
	f.status("stopped: %s", stopText(res.Reason))
	for _, u := range a.Unfinished {
		f.status("  unfinished: %s: %s", u.Ref, u.Why)
	}
}

// outcomes counts the outcomes of the objects a command is about, by kind:
// "root installations: 1 succeeded", then e.g. "; DeployItems: 1 failed".
func outcomes(a action.Assessment) string {
	var kinds []string
	counts := map[string]map[action.Outcome]int{}
	for _, r := range a.Roots {
		kind := r.Kind
		switch {
		case r.Sub:
			kind = "subinstallation"
		case kind == "":
			kind = "Installation"
		}
		if counts[kind] == nil {
			counts[kind] = map[action.Outcome]int{}
			kinds = append(kinds, kind)
		}
		counts[kind][r.Outcome]++
	}
	if len(kinds) == 0 {
		return "no root installations"
	}
	slices.SortFunc(kinds, func(a, b string) int { // root installations first
		return cmp.Compare(sortName(a), sortName(b))
	})
	var groups []string
	for _, kind := range kinds {
		var parts []string
		for _, o := range []action.Outcome{action.OutcomeSucceeded, action.OutcomeFailed, action.OutcomeUnfinished, action.OutcomeGone} {
			if n := counts[kind][o]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, strings.ToLower(string(o))))
			}
		}
		name := kind + "s"
		switch {
		case kind == "Installation":
			name = "root installations"
		case strings.HasSuffix(kind, "s"): // ComponentVersionOverwrites
			name = kind
		}
		groups = append(groups, name+": "+strings.Join(parts, ", "))
	}
	return strings.Join(groups, "; ")
}

// sortName orders kinds for outcomes: Installation first.
func sortName(kind string) string {
	if kind == "Installation" {
		return ""
	}
	return kind
}

func stopText(r reconcile.StopReason) string {
	switch r {
	case reconcile.StopFixedPoint:
		return "nothing changes any more (fixed point), but not every job has finished"
	case reconcile.StopUntil:
		return "--until reached"
	case reconcile.StopMaxSteps:
		return "--max-steps reached"
	case reconcile.StopScheduled:
		return "only scheduled automatic reconciles are left, but not every job has finished"
	}
	return "no work left, but not every job has finished"
}

// operate runs an operator action (interrupt, delete, trigger) built by run
// from the configuration of s, and prints its result.
func (f *factory) operate(_ context.Context, s *settings, run func(*action.Configuration) (*action.Run, error)) error {
	cfg, done, err := f.runConfiguration(s)
	if err != nil {
		return err
	}
	res, err := run(cfg)
	done()
	if err != nil {
		return err
	}
	return f.report(s, res)
}
