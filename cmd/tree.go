package cmd

import (
	"context"

	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
)

func newTreeCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "tree [NAME]",
		Short: "Show the tree of one root installation, or of all (runs nothing)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.treeRun(cmd.Context(), s, args)
		},
	}
}

func (f *factory) treeRun(ctx context.Context, s *settings, args []string) error {
	if err := s.checkOutput(objectFormats...); err != nil {
		return err
	}
	cfg, err := configuration(s)
	if err != nil {
		return err
	}
	a := action.NewTree(cfg)
	a.Namespace = s.Namespace
	name := ""
	if len(args) == 1 {
		name = args[0]
	}
	objs, err := a.Run(ctx, name)
	if err != nil {
		return err
	}
	return f.printObjects(s, objs)
}
