package cmd

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

func newEventsCmd(f *factory) *cobra.Command {
	var forObject string
	cmd := &cobra.Command{
		Use:   "events [[KIND] NAME]",
		Short: "Show the timeline: every creation, phase change, annotation and removal (runs nothing)",
		Long: `Show the timeline of the simulation, oldest first, with virtual time and job ID; with NAME, only
the events of the objects of that name (of KIND, when given; -n narrows the namespace), or, as
kubectl events takes it, --for KIND/NAME. With -o json it is a JSON list of {time, kind, namespace, name, type, phase, jobID, message}.`,
		Example: `  lscli events
  lscli events demo
  lscli events di demo-app-6c29l -o json
  lscli events --for inst/demo`,
		Args:              maxArgs(2),
		ValidArgsFunction: f.kindOrNameCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			if forObject != "" {
				if len(args) > 0 {
					return usagef(cmd, "give the object as arguments or with --for, not both")
				}
				if !strings.Contains(forObject, "/") {
					return invalidf("--for %s: give KIND/NAME, as kubectl events --for takes it (e.g. inst/demo)", forObject)
				}
				args = []string{forObject}
			}
			return f.eventsRun(cmd.Context(), s, args)
		},
	}
	cmd.Flags().StringVar(&forObject, "for", "", "only the events of this object, KIND/NAME (as kubectl events --for)")
	addOutputFlag(cmd, "table", "table", "json")
	addAllNamespacesFlag(cmd)
	return cmd
}

func (f *factory) eventsRun(ctx context.Context, s *settings, args []string) error {
	cfg, err := configuration(s)
	if err != nil {
		return err
	}
	a := action.NewEvents(cfg)
	a.Namespace = s.Namespace
	if len(args) > 0 {
		o, err := parseObjectArgs(args, s.Namespace)
		if err != nil {
			return err
		}
		a.Kind, a.Name, a.Namespace = o.kind, o.name, o.namespace
	}
	events, err := a.Run(ctx)
	if err != nil {
		return f.noState(err, func() error {
			if s.Output == "json" {
				return output.EventsJSON(nil, f.streams.Out)
			}
			return nil
		})
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
