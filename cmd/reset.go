package cmd

import (
	"github.com/spf13/cobra"

	"github.com/lscli/lscli/state"
)

func newResetCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "reset",
		Short: "Forget the simulation: remove the state folder",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			dir := state.New(s.State)
			unlock, err := dir.Lock()
			if err != nil {
				return err
			}
			if err := dir.Remove(); err != nil {
				_ = unlock()
				return err
			}
			_ = unlock()
			f.status("removed state %s", s.State)
			return nil
		},
	}
}
