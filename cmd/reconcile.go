package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
)

func newReconcileCmd(f *factory) *cobra.Command {
	var all bool
	files := new([]string)
	cmd := &cobra.Command{
		Use:   "reconcile [DIR|FILE]...",
		Short: "Apply a landscape and run it to its end",
		Long: `Apply the YAML files (directories are read recursively) to the simulation: new objects are
created, objects whose spec, labels or annotations changed are updated. Every root installation
that was created or changed gets the reconcile annotation (with --all: every root), which starts
a new job. An operation annotation in a file is applied as kubectl apply applies it: once
Landscaper has removed it, applying the file again puts it back (a file with
landscaper.gardener.cloud/operation: reconcile starts a new job each time). Then the controllers run until nothing is left to do, the state is saved and the
tree is printed.

Exit codes: 0 every root touched is Succeeded; 2 invalid input (nothing changed);
3 a root Failed; 4 the run stopped before every root finished.`,
		Example: `  lscli reconcile ./examples/simple
  lscli reconcile ./landscape --all -o json | jq '.items[].status.phase'`,
		ValidArgsFunction: landscapeCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = append(args, *files...)
			s, err := f.settings(cmd, args...)
			if err != nil {
				return err
			}
			return f.reconcileRun(cmd.Context(), s, args, all)
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "start a new job at every root installation, changed or not")
	addOutputFlag(cmd, "tree", objectFormats...)
	addRunFlags(cmd)
	addFilenameFlag(cmd, files)
	return cmd
}

// reconcileRun applies the paths (nothing when none are given), runs and
// prints.
func (f *factory) reconcileRun(ctx context.Context, s *settings, paths []string, all bool) error {
	cfg, done, err := f.runConfiguration(s)
	if err != nil {
		return err
	}
	a := action.NewReconcile(cfg)
	a.Paths, a.Namespace, a.All, a.RunOptions = paths, s.Namespace, all, runOptions(s)
	res, err := a.Run(ctx)
	done()
	if err != nil {
		return err
	}
	if res.Loaded != nil {
		applied := res.Applied
		jobs := plural(res.NewJobs, "root installation")
		if res.NewStandaloneJobs > 0 {
			jobs += " and " + plural(res.NewStandaloneJobs, "stand-alone object")
		}
		f.status("applied %s: %d created, %d changed, %d unchanged; new jobs for %s",
			plural(len(res.Loaded.Objects), "object"), len(applied.Created), len(applied.Updated), len(applied.Unchanged), jobs)
		if pending := res.PendingJobs + res.PendingStandaloneJobs; pending > 0 {
			var what []string
			if res.PendingJobs > 0 {
				what = append(what, plural(res.PendingJobs, "root installation"))
			}
			if res.PendingStandaloneJobs > 0 {
				what = append(what, plural(res.PendingStandaloneJobs, "stand-alone object"))
			}
			carry, it := "still carry", "each starts a new job when its running job has finished"
			if pending == 1 {
				carry, it = "still carries", "it starts a new job when its running job has finished"
			}
			f.status("note: %s %s the reconcile annotation of an earlier command: %s", strings.Join(what, " and "), carry, it)
		}
		if !all && len(applied.Created) == 0 && len(applied.Updated) == 0 && len(res.Loaded.Objects) > 0 && res.PendingJobs+res.PendingStandaloneJobs == 0 {
			// The edit-and-reconcile loop of a blueprint author: a blueprint,
			// chart or component version is no installation spec.
			f.status("hint: nothing in the files changed, so no new job started (as in Landscaper, a changed blueprint, " +
				"chart or component version alone starts none): 'lscli reconcile --all' or 'lscli trigger NAME' starts one")
		}
		if len(res.Importers) > 0 {
			changed := make([]string, len(res.ChangedImports))
			for i, ref := range res.ChangedImports {
				changed[i] = ref.String()
			}
			triggers := make([]string, len(res.Importers))
			for i, k := range res.Importers {
				triggers[i] = "'lscli trigger " + k.Namespace + "/" + k.Name + "'"
			}
			starts := "starts one"
			if len(triggers) > 1 {
				starts = "start them"
			}
			f.status("hint: %s changed; as in Landscaper, a changed import starts no job of the installations that import it: %s %s",
				strings.Join(changed, ", "), strings.Join(triggers, ", "), starts)
		}
	}
	return f.report(s, res.Run)
}

// plural says "1 object", "2 objects".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
