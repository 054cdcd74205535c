package cmd

import (
	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
)

func newTriggerCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trigger [KIND] NAME",
		Short: "Start a new job at a root installation (or retry its failed deletion), then run to the end",
		Long: `Add landscaper.gardener.cloud/operation: reconcile to the root installation NAME. If its job is
still running, the new job starts when it has finished. On an installation in DeleteFailed it
retries the deletion.

With KIND execution or deployitem, do the same for a stand-alone Execution or DeployItem (one that
no installation or execution controls).

NAME may also be KIND/NAME, as 'lscli get -o name' prints it, or NAMESPACE/NAME.`,
		Args:              rangeArgs(1, 2),
		ValidArgsFunction: f.kindOrNameCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			o, err := parseObjectArgs(args, s.Namespace)
			if err != nil {
				return err
			}
			return f.operate(cmd.Context(), s, func(cfg *action.Configuration) (*action.Run, error) {
				a := action.NewTrigger(cfg)
				a.Kind, a.Name, a.Namespace, a.RunOptions = o.kind, o.name, o.namespace, runOptions(s)
				return a.Run(cmd.Context())
			})
		},
	}
	addOutputFlag(cmd, "tree", objectFormats...)
	addRunFlags(cmd)
	return cmd
}
