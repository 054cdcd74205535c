package cmd

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

func newEventsCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "events",
		Short: "Show the timeline: every creation, phase change, annotation and removal (runs nothing)",
		Long: `Show the timeline of the simulation, oldest first, with virtual time and job ID. With -o json
it is a JSON list of {time, kind, namespace, name, type, phase, jobID, message}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("output") && f.getenv("LSCLI_OUTPUT") == "" {
				s.Output = "table"
			}
			return f.eventsRun(cmd.Context(), s)
		},
	}
}

func (f *factory) eventsRun(ctx context.Context, s *settings) error {
	if err := s.checkOutput("table", "json"); err != nil {
		return err
	}
	cfg, err := configuration(s)
	if err != nil {
		return err
	}
	a := action.NewEvents(cfg)
	a.Namespace = s.Namespace
	events, err := a.Run(ctx)
	if err != nil {
		return err
	}
	if s.Output == "json" {
		return output.EventsJSON(events, f.streams.Out)
	}
	st, err := f.styles(s)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f.streams.Out, output.Events(events, st))
	return err
}
