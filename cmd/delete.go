package cmd

import (
	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
)

func newDeleteCmd(f *factory) *cobra.Command {
	var withoutUninstall bool
	cmd := &cobra.Command{
		Use:   "delete [KIND] NAME...",
		Short: "Delete a root installation and its tree (or any object), then run to the end",
		Long: `Delete the root installation NAME. Its first deletion starts a job that deletes its
subinstallations, execution and deploy items (in reverse dependsOn order); siblings that import
its exports must be gone first. With --without-uninstall the annotation
landscaper.gardener.cloud/delete-without-uninstall is set first: the objects go, but deployers
do not uninstall what they deployed. Exit code 0 when it is gone, 3 when it ended in DeleteFailed
(retry with 'lscli trigger NAME'), 4 when the run stopped before.

With KIND, delete any object: execution, deployitem, target, dataobject, context, targetsync,
secret, configmap, installation. As on an API server, an object with finalizers is only marked,
until its controller removes them, and objects it owns go with it. A stand-alone Execution or
DeployItem (no installation or execution controls it) runs its deletion job; one that is
controlled waits for a job of its owner. So does a subinstallation, as in Landscaper: its parent's
next job fails on it, and the parent's deletion removes it. The exit codes are those above, for the object
itself; 4 also when it still waits for finalizers.

NAME may also be KIND/NAME, as 'lscli get -o name' prints it, or NAMESPACE/NAME. As with kubectl,
several objects can be named, KIND NAME NAME... or KIND/NAME KIND/NAME...: every one must exist,
all are changed at once, then the simulation runs once and reports on each.`,
		Example: `  lscli delete demo
  lscli delete deployitem my-item --without-uninstall
  lscli delete target cluster -n example`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: f.kindOrNameCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			o, many, err := operatedObjects(args, s.Namespace)
			if err != nil {
				return err
			}
			return f.operate(cmd.Context(), s, func(cfg *action.Configuration) (*action.Run, error) {
				a := action.NewDelete(cfg)
				a.Objects = many
				a.Kind, a.Name, a.Namespace, a.WithoutUninstall, a.RunOptions = o.kind, o.name, o.namespace, withoutUninstall, runOptions(s)
				return a.Run(cmd.Context())
			})
		},
	}
	cmd.Flags().BoolVar(&withoutUninstall, "without-uninstall", false,
		"set landscaper.gardener.cloud/delete-without-uninstall first: deployers leave what they deployed")
	addOutputFlag(cmd, "tree", objectFormats...)
	addRunFlags(cmd)
	return cmd
}
