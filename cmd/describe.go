package cmd

import (
	"io"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

func newDescribeCmd(f *factory) *cobra.Command {
	var selector string
	cmd := &cobra.Command{
		Use:   "describe KIND [NAME]",
		Short: "Show objects in detail: status, last error, conditions, related objects, events (runs nothing)",
		Long: `Show one object of the saved simulation as kubectl describe does: its labels and annotations,
its phase, job IDs, last error and conditions, the objects related to it (owner, subinstallations,
execution, deploy items, Targets, imported and exported DataObjects) and its events, oldest first.
KIND is a kind or its short name (inst, exec, di, tgt, do, ctx, secret, cm); NAME is found in any
namespace unless -n names one, or is NAMESPACE/NAME. KIND NAME may also be one argument KIND/NAME,
as 'lscli get -o name' prints it. KIND alone describes every object of that kind (that -l
selects), as kubectl describe KIND does, one after the other.`,
		Example: `  lscli describe inst demo
  lscli describe di demo-app-6c29l -n example
  lscli describe installation.landscaper.gardener.cloud/demo
  lscli describe di -l app=web`,
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
			st, err := f.styles(s)
			if err != nil {
				return err
			}
			a := action.NewDescribe(cfg)
			if o.kind == "" {
				// One argument that is not KIND/NAME: a kind, as kubectl
				// describe KIND takes it.
				return f.describeAll(cmd, a, s, st, args[0], selector)
			}
			if selector != "" {
				return usagef(cmd, "a label selector (-l) cannot be combined with a NAME")
			}
			a.Namespace = o.namespace
			d, err := a.Run(cmd.Context(), o.kind, o.name)
			if err != nil {
				return err
			}
			_, err = io.WriteString(f.streams.Out, describeText(d, st))
			return err
		},
	}
	cmd.Flags().StringVarP(&selector, "selector", "l", "", "with KIND alone: describe the objects this label selector selects (as kubectl's -l)")
	return cmd
}

// describeAll describes every object of kind that selector selects, each
// description followed by a blank line; none is "No objects." as get says.
func (f *factory) describeAll(cmd *cobra.Command, a *action.Describe, s *settings, st output.Styles, kind, selector string) error {
	if _, err := action.ResolveKind(kind); err != nil {
		return usagef(cmd, "describe %s: give KIND NAME or KIND/NAME, or a KIND alone for every object of it (%v)", kind, err)
	}
	var sel labels.Selector
	if selector != "" {
		parsed, err := labels.Parse(selector)
		if err != nil {
			return invalidf("invalid --selector %q: %v", selector, err)
		}
		sel = parsed
	}
	a.Namespace = s.Namespace
	ds, err := a.RunAll(cmd.Context(), kind, sel)
	if err != nil {
		return f.noState(err, nil)
	}
	if len(ds) == 0 {
		_, err := io.WriteString(f.streams.Out, output.NoObjects)
		return err
	}
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(describeText(d, st))
	}
	_, err = io.WriteString(f.streams.Out, b.String())
	return err
}

// describeText is the description of one object, as output.Describe writes it.
func describeText(d *action.Description, st output.Styles) string {
	related := make([]output.Relation, len(d.Related))
	for i, r := range d.Related {
		related[i] = output.Relation{Role: r.Role, Object: r.Object}
	}
	return output.Describe(d.Object, related, d.Events, st)
}
