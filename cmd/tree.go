package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

func newTreeCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:               "tree [NAME]",
		Short:             "Show the tree of one root installation, or of all (runs nothing)",
		Args:              maxArgs(1),
		ValidArgsFunction: f.installationCompletion(true),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.treeRun(cmd.Context(), s, args)
		},
	}
	addOutputFlag(cmd, "tree", objectFormats...)
	return cmd
}

func (f *factory) treeRun(ctx context.Context, s *settings, args []string) error {
	cfg, err := configuration(s)
	if err != nil {
		return err
	}
	a := action.NewTree(cfg)
	a.Namespace = s.Namespace
	name := ""
	if len(args) == 1 {
		o, err := parseObjectArgs(args, s.Namespace)
		if err == nil {
			o = o.orNamespaced(s, "Installation")
		}
		if err != nil {
			return err
		}
		if !o.is("Installation") {
			return invalidf("tree %s: NAME is a root installation", args[0])
		}
		name, a.Namespace = o.name, o.namespace
	}
	objs, err := a.Run(ctx, name)
	if err != nil {
		return f.noState(err, func() error { return output.PrintEmpty(s.Output, f.streams.Out) })
	}
	// tree changes nothing: a template that fails while it prints is
	// invalid input (exit 2), as for get.
	return invalidPrint(f.printObjects(s, objs, nil))
}
