package cmd

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/spf13/cobra"

	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
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
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.operate(cmd.Context(), s, operation{kind: "Installation", name: args[0],
				check: requireRoot("deleted"), act: deleteInstallation(withoutUninstall)})
		},
	}
	cmd.Flags().BoolVar(&withoutUninstall, "without-uninstall", false,
		"set landscaper.gardener.cloud/delete-without-uninstall first: deployers leave what they deployed")
	return cmd
}

// deleteInstallation returns an act that deletes the installation, with the
// delete-without-uninstall annotation first when asked.
func deleteInstallation(withoutUninstall bool) func(context.Context, *fakecluster.Cluster, fakecluster.Object) error {
	return func(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object) error {
		if withoutUninstall {
			ann := obj.GetAnnotations()
			if ann == nil {
				ann = map[string]string{}
			}
			ann[lsv1alpha1.DeleteWithoutUninstallAnnotation] = "true"
			obj.SetAnnotations(ann)
			if err := c.Update(ctx, obj); err != nil {
				return err
			}
		}
		return engine.DeleteObject(ctx, c, obj)
	}
}
