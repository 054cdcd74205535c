package cmd

import (
	"github.com/spf13/cobra"

	"github.com/lscli/lscli/engine/landscape"
)

func newValidateCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "validate [DIR|FILE]...",
		Short: "Check a landscape's files without running or saving anything",
		Long: `Read the YAML files as reconcile would and report every problem, each with its file,
document and object. Exit code 0 when the input is valid, 2 when it is not.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			loader := &landscape.Loader{DefaultNamespace: s.Namespace}
			ls, err := loader.Load(args...)
			if err != nil {
				return invalid(err)
			}
			f.status("valid: %d objects in %d namespaces", len(ls.Objects), len(ls.Namespaces()))
			return nil
		},
	}
}
