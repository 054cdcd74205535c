package cmd

import (
	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
)

func newResetCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "reset",
		Short: "Forget the simulation: remove the state folder",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			if err := action.NewReset(&action.Configuration{StatePath: s.State}).Run(cmd.Context()); err != nil {
				return err
			}
			f.status("removed state %s", s.State)
			return nil
		},
	}
}
