package cmd

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/fakecluster"
)

// getFlags are get's own flags besides --target.
type getFlags struct {
	selector              string
	noHeaders, showLabels bool
	// sortBy is kubectl's --sort-by: a JSONPath whose values order a list.
	sortBy string
	// ignoreNotFound is kubectl's --ignore-not-found: a named object that
	// does not exist is no error, and an empty answer prints nothing.
	ignoreNotFound bool
	// labelColumns is kubectl's -L: a table column per label key.
	labelColumns []string
	// fieldSelector is kubectl's --field-selector.
	fieldSelector string
}

// invalidPrint makes an error of printing that the user's input caused (a
// --sort-by whose values cannot be ordered, a template that fails while it
// prints) invalid input, exit 2, for the commands that change nothing (get,
// tree); other errors pass.
func invalidPrint(err error) error {
	var se *output.SortByError
	var te *output.TemplateError
	if errors.As(err, &se) || errors.As(err, &te) {
		return invalidf("%s", err.Error())
	}
	return err
}

func newGetCmd(f *factory) *cobra.Command {
	var target string
	var gf getFlags
	cmd := &cobra.Command{
		Use:   "get [KIND [NAME...]]",
		Short: "Show objects of the simulation (runs nothing)",
		Long: `Show the objects of the saved simulation as tables (-o table, the default for get; -o wide adds
columns), or as kubectl prints them: -o yaml|json (a Kubernetes List, or the object itself for
KIND NAME), -o name, -o jsonpath=TEMPLATE, -o custom-columns=SPEC, -o go-template=TEMPLATE (and
their -file=FILE forms); or as the tree (-o tree).
KIND is a kind or its short name (inst, exec, di, tgt, do, ctx, secret, cm). As with kubectl,
several objects can be named: KIND NAME NAME..., or KIND/NAME KIND/NAME... (a List then), and
several kinds: KIND,KIND [NAME...]. Every
namespace is shown unless -n narrows it; -l narrows by label, as kubectl's selectors do.
--no-headers and --show-labels work on tables (and custom-columns) as kubectl's do; --sort-by
orders lists and each kind's table by the value at a JSONPath, as kubectl's does.

With --target NAME, show the objects that real deployers applied to the simulated cluster behind
Target NAME (-n picks the Target's namespace when the name is ambiguous): a table with each
object's kstatus (-o wide adds apiVersion and generation), a Kubernetes List (-o yaml|json), or
kubectl's name, jsonpath, custom-columns and go-template formats.
KIND and NAME then narrow the objects by kind, in every form kubectl get takes (e.g. deployment,
deployments, deploy, Deployment, deployments.apps, deployments.v1.apps, a custom resource's plural
or short name from its CRD, KIND,KIND, or KIND/NAME arguments) and name (NAME or NAMESPACE/NAME,
as lscli names the objects a deployer applies; -n is the Target's namespace); a named object the
cluster does not have, or a kind it does not serve, is exit 2.`,
		Example: `  lscli get inst
  lscli get di -l app=web -o wide
  lscli get inst demo -o jsonpath='{.status.phase}'
  lscli get inst first second -o name
  lscli get inst,exec,di
  lscli get di -o custom-columns=NAME:.metadata.name,PHASE:.status.phase
  lscli get inst --sort-by=.status.phase`,
		ValidArgsFunction: f.kindNameCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			if gf.sortBy != "" {
				if err := output.CheckSortBy(gf.sortBy); err != nil {
					return invalidPrint(err)
				}
			}
			if target != "" {
				for _, flag := range [][2]string{{"sort-by", "orders"}, {"field-selector", "selects"}} {
					if cmd.Flags().Changed(flag[0]) {
						return invalidf("--%s %s the simulation's objects; it does not work with --target", flag[0], flag[1])
					}
				}
				return f.getTargetRun(cmd.Context(), s, target, args, gf)
			}
			return f.getRun(cmd.Context(), s, args, gf)
		},
	}
	cmd.Flags().StringVar(&target, "target", "", "show the simulated cluster behind this Target")
	addAllNamespacesFlag(cmd)
	cmd.Flags().StringVarP(&gf.selector, "selector", "l", "", "label selector, e.g. app=web,tier!=db (as kubectl's -l)")
	cmd.Flags().BoolVar(&gf.noHeaders, "no-headers", false, "leave out the header line of tables and custom-columns")
	cmd.Flags().BoolVar(&gf.showLabels, "show-labels", false, "add the objects' labels as the last column of tables")
	cmd.Flags().StringVar(&gf.sortBy, "sort-by", "", "order lists and tables by the value at this JSONPath, e.g. .status.phase (as kubectl's --sort-by)")
	cmd.Flags().BoolVar(&gf.ignoreNotFound, "ignore-not-found", false, "a named object that does not exist is no error, and an empty answer prints nothing (as kubectl's)")
	cmd.Flags().StringSliceVarP(&gf.labelColumns, "label-columns", "L", nil, "add a table column with the value of each of these label keys (as kubectl's -L)")
	cmd.Flags().StringVar(&gf.fieldSelector, "field-selector", "", "select by metadata.name, metadata.namespace (and a Secret's type), e.g. metadata.name!=demo (as kubectl's)")
	addOutputFlag(cmd, "table", getFormats...)
	return cmd
}

func (f *factory) getRun(ctx context.Context, s *settings, args []string, gf getFlags) error {
	cfg, err := configuration(s)
	if err != nil {
		return err
	}
	a := action.NewGet(cfg)
	a.Namespace = s.Namespace
	if len(args) > 0 && strings.Contains(args[0], ",") && !strings.Contains(args[0], "/") {
		return f.getKinds(ctx, s, a, args, gf)
	}
	many, err := manyObjectArgs(args, s.Namespace)
	if err != nil {
		return err
	}
	if many != nil {
		return f.getMany(ctx, s, a, many, gf)
	}
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
		if gf.selector != "" || gf.fieldSelector != "" {
			return namesAndSelector(gf)
		}
	}
	var kinds []string
	if len(args) > 0 {
		kinds = args[:1]
	}
	if err := gf.applySelectors(a, kinds); err != nil {
		return err
	}
	if (s.Output == output.FormatJSON || s.Output == output.FormatYAML) && gf.sortBy == "" {
		if stored, ok := a.RunStored(ctx, args); ok && !(gf.ignoreNotFound && len(stored) == 0) {
			if err := output.ListStored(stored, s.Output, f.streams.Out); !errors.Is(err, output.ErrNotStoredForm) {
				return err
			}
		}
	}
	objs, err := a.Run(ctx, args)
	if gf.ignored(err) {
		return nil
	}
	if err != nil {
		return f.noState(err, func() error { return gf.printEmpty(s.Output, f.streams.Out) })
	}
	// kubectl prints the object itself for KIND NAME, a List otherwise.
	return f.printGot(s, objs, len(args) == 2, gf)
}

// ignored reports whether err is a named object's NotFound that
// --ignore-not-found turns into no answer.
func (gf getFlags) ignored(err error) bool {
	var nf *action.NotFoundError
	return gf.ignoreNotFound && errors.As(err, &nf)
}

// printEmpty prints the empty answer of format, or nothing at all with
// --ignore-not-found, as kubectl does.
func (gf getFlags) printEmpty(format string, w io.Writer) error {
	if gf.ignoreNotFound {
		return nil
	}
	return output.PrintEmpty(format, w)
}

// namesAndSelector is the error of a get that names objects and selects by
// label or field too, which kubectl refuses as well.
func namesAndSelector(gf getFlags) error {
	if gf.selector != "" {
		return invalidf("get: a label selector (-l) cannot be combined with object names")
	}
	return invalidf("get: a field selector (--field-selector) cannot be combined with object names")
}

// printGot prints the objects get found in the output format of s: single
// is one object named (printed itself, not as a List). With
// --ignore-not-found an empty answer prints nothing.
func (f *factory) printGot(s *settings, objs []fakecluster.Object, single bool, gf getFlags) error {
	if gf.ignoreNotFound && len(objs) == 0 {
		return nil
	}
	switch s.Output {
	case "table", "wide":
		st, err := f.styles(s)
		if err != nil {
			return err
		}
		table, err := output.Table(objs, st, output.TableOptions{Wide: s.Output == "wide", NoHeaders: gf.noHeaders,
			ShowLabels: gf.showLabels, LabelColumns: gf.labelColumns, SortBy: gf.sortBy})
		if err != nil {
			return invalidPrint(err)
		}
		_, err = io.WriteString(f.streams.Out, table)
		return err
	case "tree":
		return f.printObjects(s, objs, nil)
	}
	return invalidPrint(output.PrintWith(objs, s.Output, output.PrintOptions{Single: single, NoHeaders: gf.noHeaders, SortBy: gf.sortBy}, f.streams.Out))
}

// manyObjectArgs reads the arguments of a get that names several objects,
// as kubectl takes them: KIND NAME NAME..., or KIND/NAME KIND/NAME... It
// returns nil for arguments that name at most one object.
func manyObjectArgs(args []string, ns string) ([]objectArg, error) {
	if len(args) < 2 || len(args) == 2 && !strings.Contains(args[0], "/") {
		return nil, nil
	}
	var out []objectArg
	if !strings.Contains(args[0], "/") {
		for _, name := range args[1:] {
			o, err := parseObjectArgs([]string{args[0], name}, ns)
			if err != nil {
				return nil, err
			}
			out = append(out, o)
		}
		return out, nil
	}
	for _, arg := range args {
		o, err := parseObjectArgs([]string{arg}, ns)
		if err != nil {
			return nil, err
		}
		if o.kind == "" {
			return nil, invalidf("get %s: name every object as KIND/NAME, or give KIND once and then the names", strings.Join(args, " "))
		}
		out = append(out, o)
	}
	return out, nil
}

// getMany prints the objects named by many as a List (or a table, names, a
// tree), sorted as every list. An object that does not exist is an error, and
// nothing is printed.
func (f *factory) getMany(ctx context.Context, s *settings, a *action.Get, many []objectArg, gf getFlags) error {
	if gf.selector != "" || gf.fieldSelector != "" {
		return namesAndSelector(gf)
	}
	var objs []fakecluster.Object
	for _, o := range many {
		a.Namespace = o.namespace
		found, err := a.Run(ctx, []string{o.kind, o.name})
		if gf.ignored(err) {
			continue
		}
		if err != nil {
			return err
		}
		objs = append(objs, found...)
	}
	return f.printGot(s, objs, false, gf)
}

// getKinds is get of several kinds, as kubectl takes them: KIND,KIND...
// [NAME...]. Without names it lists every object of each kind (that -l
// selects); with names, each kind's object of each name, which must exist
// (see getMany). The objects are printed as every list, by kind in lscli's
// order of kinds.
func (f *factory) getKinds(ctx context.Context, s *settings, a *action.Get, args []string, gf getFlags) error {
	var kinds []string
	for _, k := range strings.Split(args[0], ",") {
		kind, err := action.ResolveKind(k)
		if err != nil {
			return err
		}
		if !slices.Contains(kinds, kind) {
			kinds = append(kinds, kind)
		}
	}
	if names := args[1:]; len(names) > 0 {
		var many []objectArg
		for _, kind := range kinds {
			for _, name := range names {
				o, err := parseObjectArgs([]string{kind, name}, s.Namespace)
				if err != nil {
					return err
				}
				many = append(many, o)
			}
		}
		return f.getMany(ctx, s, a, many, gf)
	}
	if err := gf.applySelectors(a, kinds); err != nil {
		return err
	}
	var objs []fakecluster.Object
	for _, kind := range kinds {
		found, err := a.Run(ctx, []string{kind})
		if err != nil {
			return f.noState(err, func() error { return gf.printEmpty(s.Output, f.streams.Out) })
		}
		objs = append(objs, found...)
	}
	return f.printGot(s, objs, false, gf)
}

// applySelectors sets a's label selector to -l and its field selector to
// --field-selector, where given; the fields must be ones a cluster selects
// objects of kinds by (every kind, when kinds is empty).
func (gf getFlags) applySelectors(a *action.Get, kinds []string) error {
	if gf.selector != "" {
		sel, err := labels.Parse(gf.selector)
		if err != nil {
			return invalidf("invalid --selector %q: %v", gf.selector, err)
		}
		a.Selector = sel
	}
	if gf.fieldSelector != "" {
		sel, err := fields.ParseSelector(gf.fieldSelector)
		if err != nil {
			return invalidf("invalid --field-selector %q: %v", gf.fieldSelector, err)
		}
		resolved := make([]string, 0, len(kinds))
		for _, k := range kinds {
			kind, err := action.ResolveKind(k)
			if err != nil {
				return err
			}
			resolved = append(resolved, kind)
		}
		if err := action.CheckFieldSelector(sel, resolved); err != nil {
			return err
		}
		a.Fields = sel
	}
	return nil
}
