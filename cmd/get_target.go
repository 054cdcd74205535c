package cmd

import (
	"context"
	"io"
	"strings"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

// getTargetRun prints the objects of the simulated cluster behind Target
// name. An unknown or ambiguous Target is invalid input.
func (f *factory) getTargetRun(ctx context.Context, s *settings, name string, args []string, gf getFlags) error {
	kubectlFormat := s.Output == output.FormatName || output.IsTemplateFormat(s.Output)
	if !kubectlFormat && !contains([]string{"table", "wide", "yaml", "json"}, s.Output) {
		return invalidf("invalid --output %q with --target (allowed: table, wide, yaml, json, name, and kubectl's template formats)", s.Output)
	}
	cfg, err := configuration(s)
	if err != nil {
		return err
	}
	// --target takes what NAME takes: NAMESPACE/NAME, and target/NAME.
	o, err := parseObjectArgs([]string{name}, s.Namespace)
	if err != nil {
		return err
	}
	if !o.is("Target") {
		return invalidf("--target %s: name a Target", name)
	}
	a := action.NewGet(cfg)
	a.Namespace = o.namespace
	if err := gf.applySelectors(a, nil); err != nil {
		return err
	}
	reqs, err := action.ParseClusterArgs(args)
	if err != nil {
		return invalidf("%v", err)
	}
	for _, r := range reqs {
		if len(r.Names) > 0 && gf.selector != "" { // --field-selector does not work with --target (applySelectors)
			return namesAndSelector(gf)
		}
	}
	objs, missing, err := a.RunTarget(ctx, o.name, reqs)
	if err != nil {
		return err
	}
	if gf.ignoreNotFound && len(objs) == 0 {
		return nil
	}
	if len(missing) > 0 && !gf.ignoreNotFound {
		// kubectl get KIND NAME of an object that is not there is an
		// error; a list that selects nothing is not.
		return invalidf("%s not found on the cluster of Target %s", strings.Join(missing, ", "), name)
	}
	// One name of one resource is kubectl's single item: the object
	// itself, not a List.
	single := len(reqs) == 1 && len(reqs[0].Names) == 1
	if kubectlFormat {
		return invalidPrint(output.ClusterPrint(objs, s.Output, single, gf.noHeaders, f.streams.Out))
	}
	switch s.Output {
	case "yaml", "json":
		if single && len(objs) == 1 {
			return output.ClusterObject(objs[0], s.Output, f.streams.Out)
		}
		return output.ClusterList(objs, s.Output, f.streams.Out)
	}
	st, err := f.styles(s)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f.streams.Out, output.ClusterTable(objs, st,
		output.TableOptions{Wide: s.Output == "wide", NoHeaders: gf.noHeaders, ShowLabels: gf.showLabels, LabelColumns: gf.labelColumns}))
	return err
}
