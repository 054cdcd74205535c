package cmd

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
)

// reconcileOptions are the options of `lscli reconcile`.
type reconcileOptions struct {
	Paths []string
	// All annotates every root installation, not only created or changed ones.
	All bool
}

func newReconcileCmd(f *factory) *cobra.Command {
	opts := &reconcileOptions{}
	cmd := &cobra.Command{
		Use:   "reconcile [DIR|FILE]...",
		Short: "Apply a landscape and run it to its end",
		Long: `Apply the YAML files (directories are read recursively) to the simulation: new objects are
created, objects whose spec, labels or annotations changed are updated. Every root installation
that was created or changed gets the reconcile annotation (with --all: every root), which starts
a new job. Then the controllers run until nothing is left to do, the state is saved and the
tree is printed.

Exit codes: 0 every root touched is Succeeded; 2 invalid input (nothing changed);
3 a root Failed; 4 the run stopped before every root finished.`,
		Example: `  lscli reconcile ./examples/simple
  lscli reconcile ./landscape --all -o json | jq '.items[].status.phase'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.reconcileRun(cmd.Context(), s, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.All, "all", false, "start a new job at every root installation, changed or not")
	return cmd
}

// reconcileRun loads the files before touching the state, so invalid input
// changes nothing.
func (f *factory) reconcileRun(ctx context.Context, s *settings, opts *reconcileOptions) error {
	if err := s.checkOutput(objectFormats...); err != nil {
		return err
	}
	var ls *landscape.Landscape
	if len(opts.Paths) > 0 {
		var err error
		loader := &landscape.Loader{DefaultNamespace: s.Namespace}
		if ls, err = loader.Load(opts.Paths...); err != nil {
			return invalid(err)
		}
	}
	ss, err := openSession(s)
	if err != nil {
		return err
	}
	defer ss.close()
	roots, applied, err := applyLandscape(ctx, ss.cluster(), ls, opts.All)
	if err != nil {
		return err
	}
	if ls != nil {
		f.status("applied %s: %d created, %d changed, %d unchanged; new jobs for %s",
			plural(len(ls.Objects), "object"), len(applied.Created), len(applied.Updated), len(applied.Unchanged),
			plural(countAnnotated(applied, opts.All, roots), "root installation"))
	}
	return f.runAndReport(ctx, ss, roots)
}

// applyLandscape applies ls (which may be nil), puts the reconcile annotation
// on the changed roots (all roots with all) and returns the roots to report on:
// those annotated, or, when none were, every root of ls (every root in the
// state when no files were given).
func applyLandscape(ctx context.Context, c *fakecluster.Cluster, ls *landscape.Landscape, all bool) ([]types.NamespacedName, engine.ApplyResult, error) {
	var objs []fakecluster.Object
	var namespaces []string
	if ls != nil {
		for _, d := range ls.Objects {
			objs = append(objs, d.Object)
		}
		namespaces = ls.Namespaces()
	}
	if err := engine.EnsureDefaultContexts(ctx, c, namespaces); err != nil {
		return nil, engine.ApplyResult{}, err
	}
	applied, err := engine.Apply(ctx, c, objs)
	if err != nil {
		return nil, applied, err
	}
	roots := applied.ChangedRoots
	if all {
		if roots, err = engine.Roots(ctx, c); err != nil {
			return nil, applied, err
		}
	}
	for _, key := range roots {
		if err := engine.SetOperation(ctx, c, &lsv1alpha1.Installation{}, key, lsv1alpha1.ReconcileOperation); err != nil {
			return nil, applied, fmt.Errorf("annotate %s: %w", key, err)
		}
	}
	switch {
	case len(roots) > 0:
		return roots, applied, nil
	case ls == nil:
		roots, err = engine.Roots(ctx, c)
		return roots, applied, err
	}
	return rootsOf(objs), applied, nil
}

// rootsOf returns the root installations among objs.
func rootsOf(objs []fakecluster.Object) []types.NamespacedName {
	var out []types.NamespacedName
	for _, o := range objs {
		if inst, ok := o.(*lsv1alpha1.Installation); ok && engine.IsRoot(inst) {
			out = append(out, types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name})
		}
	}
	return out
}

// countAnnotated is how many roots got the reconcile annotation.
func countAnnotated(applied engine.ApplyResult, all bool, roots []types.NamespacedName) int {
	if all {
		return len(roots)
	}
	return len(applied.ChangedRoots)
}

// plural says "1 object", "2 objects".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
