package cmd

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/spf13/cobra"

	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
)

func newInterruptCmd(f *factory) *cobra.Command {
	var execution bool
	cmd := &cobra.Command{
		Use:   "interrupt NAME",
		Short: "Interrupt the running job of an installation (or execution), then run to the end",
		Long: `Add landscaper.gardener.cloud/operation: interrupt to the installation NAME (with --execution, to the
execution NAME). The installation controller passes it down to the subinstallations and the
execution; the execution controller fails every deploy item that has not finished the job
("operation was interrupted"), so the whole tree finishes (Failed). Start a new job with
'lscli trigger ROOT'.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			op := operation{kind: "Installation", name: args[0], act: setOperation(lsv1alpha1.InterruptOperation)}
			if execution {
				op.kind = "Execution"
			}
			return f.operate(cmd.Context(), s, op)
		},
	}
	cmd.Flags().BoolVar(&execution, "execution", false, "NAME is an execution")
	return cmd
}

// setOperation returns an act that puts the operation annotation op on the object.
func setOperation(op lsv1alpha1.Operation) func(context.Context, *fakecluster.Cluster, fakecluster.Object) error {
	return func(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object) error {
		return engine.SetOperation(ctx, c, obj, keyOf(obj), op)
	}
}
