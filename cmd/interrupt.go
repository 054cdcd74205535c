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
'lscli trigger ROOT'.

NAME may also be KIND/NAME (installation/NAME, execution/NAME), or NAMESPACE/NAME.`,
		Args:              exactArgs(1),
		ValidArgsFunction: f.installationCompletion(false),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			o, err := parseObjectArgs(args, s.Namespace)
			if err == nil {
				o = o.orNamespaced(s, "Installation", "Execution")
			}
			if err != nil {
				return err
			}
			isExecution := execution
			switch {
			case o.kind == "":
			case o.is("Execution"):
				isExecution = true
			case !o.is("Installation") || execution:
				return invalidf("interrupt %s: NAME is an installation, or with --execution an execution", args[0])
			}
			return f.operate(cmd.Context(), s, func(cfg *action.Configuration) (*action.Run, error) {
				a := action.NewInterrupt(cfg)
				a.Name, a.Namespace, a.Execution, a.RunOptions = o.name, o.namespace, isExecution, runOptions(s)
				return a.Run(cmd.Context())
			})
		},
	}
	cmd.Flags().BoolVar(&execution, "execution", false, "NAME is an execution")
	addOutputFlag(cmd, "tree", objectFormats...)
	addRunFlags(cmd)
	return cmd
}
