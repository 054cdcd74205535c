package cmd

import (
	"context"

	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
)

func newValidateCmd(f *factory) *cobra.Command {
	opts := &renderOptions{}
	cmd := &cobra.Command{
		Use:   "validate [DIR|FILE]...",
		Short: "Check a landscape's files and blueprints without running or saving anything",
		Long: `Read the YAML files as reconcile would and report every problem, each with its file,
document and object. Then render every installation as render does (imports, subinstallations,
deploy items, exports; --exports gives deploy item exports) and report every problem, each with its
installation, execution and line. Nothing is printed on stdout.

Exit code 0 when the input is valid, 2 when it is not.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.validateRun(cmd.Context(), s, args, opts)
		},
	}
	addRenderFlags(cmd, opts)
	return cmd
}

// validateRun loads and renders the landscape and reports what is wrong.
func (f *factory) validateRun(ctx context.Context, s *settings, paths []string, opts *renderOptions) error {
	res, err := f.dryRun(ctx, s, paths, opts)
	if err != nil {
		return err
	}
	if err := f.reportProblems(res.Problems); err != nil {
		return err
	}
	installations, items := action.CountRendered(res.Roots)
	f.status("valid: %d objects in %d namespaces", len(res.Loaded.Objects), len(res.Loaded.Namespaces()))
	f.status("rendered: %d installations with %d deploy items", installations, items)
	return nil
}
