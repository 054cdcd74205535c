package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
)

func newValidateCmd(f *factory) *cobra.Command {
	opts := &renderOptions{}
	files := new([]string)
	cmd := &cobra.Command{
		Use:         "validate [DIR|FILE]...",
		Annotations: map[string]string{annotationNoState: "true"},
		Short:       "Check a landscape's files and blueprints without running or saving anything",
		Long: `Read the YAML files as reconcile would and report every problem, each with its file,
document and object. Then render every installation as render does (imports, subinstallations,
deploy items, exports; --exports gives deploy item exports) and report every problem, each with its
installation, execution and line. Nothing is printed on stdout.

Exit code 0 when the input is valid, 2 when it is not.`,
		ValidArgsFunction: landscapeCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = append(args, *files...)
			s, err := f.settings(cmd, args...)
			if err != nil {
				return err
			}
			return f.validateRun(cmd.Context(), s, args, opts)
		},
	}
	addRenderFlags(cmd, opts)
	addFilenameFlag(cmd, files)
	return cmd
}

// validateRun loads and renders the landscape and reports what is wrong.
func (f *factory) validateRun(ctx context.Context, s *settings, paths []string, opts *renderOptions) error {
	opts.withoutObjects = true // validate prints counts and problems
	res, err := f.dryRun(ctx, s, paths, opts)
	if err != nil {
		return err
	}
	if err := f.reportProblems(res); err != nil {
		return err
	}
	for _, n := range res.Notes {
		f.status("note: %s", n)
	}
	installations, items := action.CountRendered(res.Roots)
	f.status("valid: %s in %s", plural(len(res.Loaded.Objects), "object"), plural(len(res.Loaded.Namespaces()), "namespace"))
	f.status("rendered: %s with %s", plural(installations, "installation"), plural(items, "deploy item"))
	if n := len(res.Warnings); n > 0 {
		f.status("not checked: %s (see the warnings above)", plural(n, "export execution"))
	}
	return nil
}
