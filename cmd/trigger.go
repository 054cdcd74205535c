package cmd

import (
	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
)

func newTriggerCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trigger [KIND] NAME...",
		Short: "Start a new job at a root installation (or retry its failed deletion), then run to the end",
		Long: `Add landscaper.gardener.cloud/operation: reconcile to the root installation NAME. If its job is
still running, the new job starts when it has finished. On an installation in DeleteFailed it
retries the deletion.

With KIND execution or deployitem, do the same for a stand-alone Execution or DeployItem (one that
no installation or execution controls).

NAME may also be KIND/NAME, as 'lscli get -o name' prints it, or NAMESPACE/NAME. As with kubectl,
several objects can be named, KIND NAME NAME... or KIND/NAME KIND/NAME...: every one must exist,
all are changed at once, then the simulation runs once and reports on each.`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: f.kindOrNameCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			o, many, err := operatedObjects(args, s.Namespace)
			if err == nil && many == nil {
				o = o.orNamespaced(s, "Installation", "Execution", "DeployItem")
			}
			if err != nil {
				return err
			}
			return f.operate(cmd.Context(), s, func(cfg *action.Configuration) (*action.Run, error) {
				a := action.NewTrigger(cfg)
				a.Objects = many
				a.Kind, a.Name, a.Namespace, a.RunOptions = o.kind, o.name, o.namespace, runOptions(s)
				return a.Run(cmd.Context())
			})
		},
	}
	addOutputFlag(cmd, "tree", objectFormats...)
	addRunFlags(cmd)
	return cmd
}
