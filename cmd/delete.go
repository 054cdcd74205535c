package cmd

import (
	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
)

func newDeleteCmd(f *factory) *cobra.Command {
	var withoutUninstall bool
	cmd := &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete a root installation and its tree, then run to the end",
		Long: `Delete the root installation NAME. Its first deletion starts a job that deletes its
subinstallations, execution and deploy items (in reverse dependsOn order); siblings that import
its exports must be gone first. With --without-uninstall the annotation
landscaper.gardener.cloud/delete-without-uninstall is set first: the objects go, but deployers
do not uninstall what they deployed. Exit code 0 when it is gone, 3 when it ended in DeleteFailed
(retry with 'lscli trigger NAME'), 4 when the run stopped before.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.operate(cmd.Context(), s, func(cfg *action.Configuration) (*action.Run, error) {
				a := action.NewDelete(cfg)
				a.Name, a.Namespace, a.WithoutUninstall, a.RunOptions = args[0], s.Namespace, withoutUninstall, runOptions(s)
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
