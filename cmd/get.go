package cmd

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

func newGetCmd(f *factory) *cobra.Command {
	var target, selector string
	cmd := &cobra.Command{
		Use:   "get [KIND [NAME]]",
		Short: "Show objects of the simulation (runs nothing)",
		Long: `Show the objects of the saved simulation as tables (-o table, the default for get; -o wide adds
columns), or as kubectl prints them: -o yaml|json (a Kubernetes List, or the object itself for
KIND NAME), -o name, -o jsonpath=TEMPLATE, -o custom-columns=SPEC; or as the tree (-o tree).
KIND is a kind or its short name (inst, exec, di, tgt, do, ctx, secret, cm). Every namespace is
shown unless -n narrows it; -l narrows by label, as kubectl's selectors do.

With --target NAME, show the objects that real deployers applied to the simulated cluster behind
Target NAME (-n picks the Target's namespace when the name is ambiguous): a table with each
object's kstatus (-o wide adds apiVersion and generation), or a Kubernetes List (-o yaml|json).
KIND and NAME then narrow the objects by kind (e.g. deployment, deployments) and name.`,
		Example: `  lscli get inst
  lscli get di -l app=web -o wide
  lscli get inst demo -o jsonpath='{.status.phase}'
  lscli get di -o custom-columns=NAME:.metadata.name,PHASE:.status.phase`,
		Args:              maxArgs(2),
		ValidArgsFunction: f.kindNameCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			if target != "" {
				return f.getTargetRun(cmd.Context(), s, target, args)
			}
			return f.getRun(cmd.Context(), s, args, selector)
		},
	}
	cmd.Flags().StringVar(&target, "target", "", "show the simulated cluster behind this Target")
	addAllNamespacesFlag(cmd)
	cmd.Flags().StringVarP(&selector, "selector", "l", "", "label selector, e.g. app=web,tier!=db (as kubectl's -l)")
	addOutputFlag(cmd, "table", getFormats...)
	return cmd
}

func (f *factory) getRun(ctx context.Context, s *settings, args []string, selector string) error {
	cfg, err := configuration(s)
	if err != nil {
		return err
	}
	a := action.NewGet(cfg)
	a.Namespace = s.Namespace
	if len(args) == 2 || len(args) == 1 && strings.Contains(args[0], "/") {
		// KIND NAME, KIND/NAME, KIND NAMESPACE/NAME (see parseObjectArgs).
		o, err := parseObjectArgs(args, s.Namespace)
		if err != nil {
			return err
		}
		if o.kind == "" {
			return invalidf("get %s: give KIND/NAME, or KIND NAME", args[0])
		}
		args, a.Namespace = []string{o.kind, o.name}, o.namespace
	}
	if selector != "" {
		if a.Selector, err = labels.Parse(selector); err != nil {
			return invalidf("invalid --selector %q: %v", selector, err)
		}
	}
	if s.Output == output.FormatJSON || s.Output == output.FormatYAML {
		if stored, ok := a.RunStored(ctx, args); ok {
			if err := output.ListStored(stored, s.Output, f.streams.Out); !errors.Is(err, output.ErrNotStoredForm) {
				return err
			}
		}
	}
	objs, err := a.Run(ctx, args)
	if err != nil {
		return f.noState(err, func() error { return output.PrintEmpty(s.Output, f.streams.Out) })
	}
	switch s.Output {
	case "table", "wide":
		st, err := f.styles(s)
		if err != nil {
			return err
		}
		_, err = io.WriteString(f.streams.Out, output.Table(objs, st, output.TableOptions{Wide: s.Output == "wide"}))
		return err
	case "tree":
		return f.printObjects(s, objs)
	}
	// kubectl prints the object itself for KIND NAME, a List otherwise.
	return output.Print(objs, s.Output, len(args) == 2, f.streams.Out)
}
