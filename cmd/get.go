package cmd

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

func newGetCmd(f *factory) *cobra.Command {
	var target string
	cmd := &cobra.Command{
		Use:   "get [KIND [NAME]]",
		Short: "Show objects of the simulation (runs nothing)",
		Long: `Show the objects of the saved simulation as tables (-o table, the default for get), or as a
Kubernetes List (-o yaml|json), or as the tree (-o tree|wide). KIND is a kind or its short name
(inst, exec, di, tgt, do, ctx, secret, cm). Every namespace is shown unless -n narrows it.

With --target NAME, show the objects that real deployers applied to the simulated cluster behind
Target NAME (-n picks the Target's namespace when the name is ambiguous): a table with each
object's kstatus (-o wide adds apiVersion and generation), or a Kubernetes List (-o yaml|json).
KIND and NAME then narrow the objects by kind (e.g. deployment, deployments) and name.`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("output") && f.getenv("LSCLI_OUTPUT") == "" {
				s.Output = "table"
			}
			if target != "" {
				return f.getTargetRun(cmd.Context(), s, target, args)
			}
			return f.getRun(cmd.Context(), s, args)
		},
	}
	cmd.Flags().StringVar(&target, "target", "", "show the simulated cluster behind this Target")
	return cmd
}

func (f *factory) getRun(ctx context.Context, s *settings, args []string) error {
	if err := s.checkOutput(append([]string{"table"}, objectFormats...)...); err != nil {
		return err
	}
	cfg, err := configuration(s)
	if err != nil {
		return err
	}
	a := action.NewGet(cfg)
	a.Namespace = s.Namespace
	objs, err := a.Run(ctx, args)
	if err != nil {
		return err
	}
	if s.Output != "table" {
		return f.printObjects(s, objs)
	}
	st, err := f.styles(s)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f.streams.Out, output.Table(objs, st))
	return err
}
