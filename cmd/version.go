package cmd

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newVersionCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of lscli",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(f.streams.Out, "lscli %s\n", version)
			return err
		},
	}
}
