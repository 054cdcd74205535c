package cmd

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/spf13/cobra"
)

func newTriggerCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "trigger NAME",
		Short: "Start a new job at a root installation (or retry its failed deletion), then run to the end",
		Long: `Add landscaper.gardener.cloud/operation: reconcile to the root installation NAME. If its job is
still running, the new job starts when it has finished. On an installation in DeleteFailed it
retries the deletion.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.operate(cmd.Context(), s, operation{kind: "Installation", name: args[0],
				check: requireRoot("triggered"), act: setOperation(lsv1alpha1.ReconcileOperation)})
		},
	}
}
