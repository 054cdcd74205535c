package cmd

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

func newDescribeCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "describe KIND NAME",
		Short: "Show one object in detail: status, last error, conditions, related objects, events (runs nothing)",
		Long: `Show one object of the saved simulation as kubectl describe does: its labels and annotations,
its phase, job IDs, last error and conditions, the objects related to it (owner, subinstallations,
execution, deploy items, Targets, imported and exported DataObjects) and its events, oldest first.
KIND is a kind or its short name (inst, exec, di, tgt, do, ctx, secret, cm); NAME is found in any
namespace unless -n names one, or is NAMESPACE/NAME. KIND NAME may also be one argument KIND/NAME,
as 'lscli get -o name' prints it.`,
		Example: `  lscli describe inst demo
  lscli describe di demo-app-6c29l -n example
  lscli describe installation.landscaper.gardener.cloud/demo`,
		Args:              rangeArgs(1, 2),
		ValidArgsFunction: f.kindNameCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			cfg, err := configuration(s)
			if err != nil {
				return err
			}
			o, err := parseObjectArgs(args, s.Namespace)
			if err != nil {
				return err
			}
			if o.kind == "" {
				return usagef(cmd, "missing NAME")
			}
			a := action.NewDescribe(cfg)
			a.Namespace = o.namespace
			d, err := a.Run(cmd.Context(), o.kind, o.name)
			if err != nil {
				return err
			}
			st, err := f.styles(s)
			if err != nil {
				return err
			}
			related := make([]output.Relation, len(d.Related))
			for i, r := range d.Related {
				related[i] = output.Relation{Role: r.Role, Object: r.Object}
			}
			_, err = io.WriteString(f.streams.Out, output.Describe(d.Object, related, d.Events, st))
			return err
		},
	}
}
