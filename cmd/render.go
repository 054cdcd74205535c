package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/action/dryrun"
	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/landscaper/template"
)

// renderFormats are the -o values of render.
var renderFormats = []string{"tree", "wide", "yaml", "json"}

// renderOptions are the options of `lscli render` and `lscli validate`.
type renderOptions struct {
	// ExportsFile holds the deploy item exports to assume (--exports).
	ExportsFile string
	// withoutObjects: the command does not print the dry run's objects.
	withoutObjects bool
}

func newRenderCmd(f *factory) *cobra.Command {
	opts := &renderOptions{}
	files := new([]string)
	cmd := &cobra.Command{
		Use:         "render [DIR|FILE]...",
		Annotations: map[string]string{annotationNoState: "true"},
		Short:       "Dry-run the blueprints of a landscape: imports, subinstallations, deploy items, exports",
		Long: `Render every installation of the landscape as the installation controller would, without
running any deployer and without touching the saved simulation: resolve its imports, render its
subinstallations (recursively), its deploy items with their full configuration, and its exports.

Deploy items do not run, so their exports are assumed: from --exports FILE, a YAML map from
"<installation path>/<deploy item name>" (a glob; the path is the root's name, then subinstallation
template names, e.g. "app/db/schema" or "app/*/schema") to the exports; else, for mock deploy items,
the export of their configuration; else none.

Blueprints referenced by spec.blueprint.ref.resourceName are read from local folders named by the
blueprints map of the config file (lscli.yaml).

-o tree (the default) prints a tree per root installation; -o yaml|json prints a Kubernetes List of
every object of the dry run (installations with their subinstallations, executions with their deploy
items, the DataObjects and Targets of imports and exports).

Exit codes: 0 everything renders and validates; 2 something does not (every problem is listed on
stderr, with the installation, the execution and the line).`,
		Example: `  lscli render ./examples/sibling-dataflow
  lscli render ./landscape --exports deployer-exports.yaml -o json | jq '.items[] | select(.kind=="Execution")'`,
		ValidArgsFunction: landscapeCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = append(args, *files...)
			s, err := f.settings(cmd, args...)
			if err != nil {
				return err
			}
			return f.renderRun(cmd.Context(), s, args, opts)
		},
	}
	addRenderFlags(cmd, opts)
	addOutputFlag(cmd, "tree", renderFormats...)
	addFilenameFlag(cmd, files)
	return cmd
}

// addRenderFlags declares the flags render and validate share.
func addRenderFlags(cmd *cobra.Command, opts *renderOptions) {
	addSeedFlags(cmd)
	cmd.Flags().StringVar(&opts.ExportsFile, "exports", "",
		`YAML file mapping "<installation path>/<deploy item name>" globs to the exports to assume for those deploy items`)
}

// renderRun renders the landscape and prints it.
func (f *factory) renderRun(ctx context.Context, s *settings, paths []string, opts *renderOptions) error {
	// Only -o yaml and -o json print the dry run's objects.
	opts.withoutObjects = s.Output != "yaml" && s.Output != "json"
	res, err := f.dryRun(ctx, s, paths, opts)
	if err != nil {
		return err
	}
	switch s.Output {
	case "yaml", "json":
		err = output.List(action.InNamespace(res.Objects, s.Namespace), s.Output, f.streams.Out)
	default:
		st, serr := f.styles(s)
		if serr != nil {
			return serr
		}
		_, err = io.WriteString(f.streams.Out, renderTree(rootsIn(res.Roots, s.Namespace), st))
	}
	if err != nil {
		return err
	}
	for _, n := range res.Notes {
		f.status("note: %s", n)
	}
	return f.reportProblems(res)
}

// dryRun loads the landscape and renders it.
func (f *factory) dryRun(ctx context.Context, s *settings, paths []string, opts *renderOptions) (*action.RenderResult, error) {
	cfg, err := configuration(s)
	if err != nil {
		return nil, err
	}
	a := action.NewRender(cfg)
	a.Paths, a.Namespace, a.ExportsFile, a.WithoutObjects = paths, s.Namespace, opts.ExportsFile, opts.withoutObjects
	return a.Run(ctx)
}

// rootsIn keeps the roots in namespace ns; an empty ns keeps all.
func rootsIn(roots []*dryrun.Installation, ns string) []*dryrun.Installation {
	if ns == "" {
		return roots
	}
	var out []*dryrun.Installation
	for _, r := range roots {
		if r.Object.Namespace == ns {
			out = append(out, r)
		}
	}
	return out
}

// reportProblems prints every problem and warning of a dry run (with the
// template lines around it, when known) and returns exit code 2 when there
// are problems (1 when a template engine panicked). Warnings are lscli's
// warnings about the files (reconcile.Warn) and what the dry run could not
// check; they do not change the exit code.
func (f *factory) reportProblems(res *action.RenderResult) error {
	where := rootFiles(res.Loaded)
	for _, p := range res.Problems {
		f.templateError("error", p, where)
	}
	for _, w := range res.InputWarnings {
		f.status("warning: %s", w)
	}
	for _, w := range res.Warnings {
		f.templateError("warning: not checked", w, where)
	}
	return action.SilentExit(action.ProblemsExitCode(res.Problems))
}

// rootFiles says where each installation of ls was read: "FILE: document
// N", as the loader's problems say it.
func rootFiles(ls *landscape.Landscape) map[types.NamespacedName]string {
	out := map[types.NamespacedName]string{}
	for _, d := range ls.Objects {
		if inst, ok := d.Object.(*lsv1alpha1.Installation); ok {
			out[types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}] = landscape.Where(d.File, d.Index)
		}
	}
	return out
}

// templateError prints err after label and, for a problem of a root
// installation, the file and document where says the root came from, with
// the template lines around it when known.
func (f *factory) templateError(label string, err error, where map[types.NamespacedName]string) {
	var re *dryrun.RootError
	if errors.As(err, &re) && where[re.Root] != "" {
		label += ": " + where[re.Root]
	}
	f.status("%s: %v", label, err)
	var te *template.Error
	if errors.As(err, &te) {
		if snippet := te.Snippet(); snippet != "" {
			fmt.Fprint(f.streams.ErrOut, snippet)
		}
	}
}
