package cmd

import (
	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
)

func newTriggerCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trigger NAME",
		Short: "Start a new job at a root installation (or retry its failed deletion), then run to the end",
		Long: `Add landscaper.gardener.cloud/operation: reconcile to the root installation NAME. If its job is
still running, the new job starts when it has finished. On an installation in DeleteFailed it
retries the deletion.`,
		Args:              exactArgs(1),
		ValidArgsFunction: f.installationCompletion(true),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.operate(cmd.Context(), s, func(cfg *action.Configuration) (*action.Run, error) {
				a := action.NewTrigger(cfg)
				a.Name, a.Namespace, a.RunOptions = args[0], s.Namespace, runOptions(s)
				return a.Run(cmd.Context())
			})
		},
	}
	addOutputFlag(cmd, "tree", objectFormats...)
	addRunFlags(cmd)
	return cmd
}
