package cmd

import (
	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
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
		Args:              exactArgs(1),
		ValidArgsFunction: f.installationCompletion(false),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.operate(cmd.Context(), s, func(cfg *action.Configuration) (*action.Run, error) {
				a := action.NewInterrupt(cfg)
				a.Name, a.Namespace, a.Execution, a.RunOptions = args[0], s.Namespace, execution, runOptions(s)
				return a.Run(cmd.Context())
			})
		},
	}
	cmd.Flags().BoolVar(&execution, "execution", false, "NAME is an execution")
	addOutputFlag(cmd, "tree", objectFormats...)
	addRunFlags(cmd)
	return cmd
}
