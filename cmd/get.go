package cmd

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/fakecluster"
)

// kindAliases maps what users type to kinds, as kubectl's short names do.
var kindAliases = map[string]string{
	"installation": "Installation", "installations": "Installation", "inst": "Installation",
	"execution": "Execution", "executions": "Execution", "exec": "Execution",
	"deployitem": "DeployItem", "deployitems": "DeployItem", "di": "DeployItem",
	"target": "Target", "targets": "Target", "tgt": "Target", "tg": "Target",
	"dataobject": "DataObject", "dataobjects": "DataObject", "dobj": "DataObject", "do": "DataObject",
	"context": "Context", "contexts": "Context", "ctx": "Context",
	"secret": "Secret", "secrets": "Secret", "configmap": "ConfigMap", "configmaps": "ConfigMap", "cm": "ConfigMap",
}

func newGetCmd(f *factory) *cobra.Command {
	var target string
	cmd := &cobra.Command{
		Use:   "get [KIND [NAME]]",
		Short: "Show objects of the simulation (runs nothing)",
		Long: `Show the objects of the saved simulation as tables (-o table, the default for get), or as a
Kubernetes List (-o yaml|json), or as the tree (-o tree|wide). KIND is a kind or its short name
(inst, exec, di, tgt, do, ctx, secret, cm). Every namespace is shown unless -n narrows it.

With --target NAME, show the objects that real deployers applied to the simulated cluster behind
Target NAME (-n picks the Target's namespace when the name is ambiguous): a table with each
object's kstatus (-o wide adds apiVersion and generation), or a Kubernetes List (-o yaml|json).
KIND and NAME then narrow the objects by kind (e.g. deployment, deployments) and name.`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("output") && f.getenv("LSCLI_OUTPUT") == "" {
				s.Output = "table"
			}
			if target != "" {
				return f.getTargetRun(cmd.Context(), s, target, args)
			}
			return f.getRun(cmd.Context(), s, args)
		},
	}
	cmd.Flags().StringVar(&target, "target", "", "show the simulated cluster behind this Target")
	return cmd
}

func (f *factory) getRun(_ context.Context, s *settings, args []string) error {
	if err := s.checkOutput(append([]string{"table"}, objectFormats...)...); err != nil {
		return err
	}
	ss, err := openSession(s)
	if err != nil {
		return err
	}
	defer ss.close()
	objs, err := selectObjects(ss.cluster().Objects(), s.Namespace, args)
	if err != nil {
		return err
	}
	if s.Output != "table" {
		return f.printObjects(s, objs)
	}
	st, err := f.styles(s)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f.streams.Out, output.Table(objs, st))
	return err
}

// selectObjects keeps the objects of namespace ns (all when empty) that match
// args: [KIND [NAME]]. An unknown kind, or a name that matches nothing, is
// invalid input.
func selectObjects(objs []fakecluster.Object, ns string, args []string) ([]fakecluster.Object, error) {
	objs = inNamespace(objs, ns)
	if len(args) == 0 {
		return objs, nil
	}
	kind, ok := kindAliases[strings.ToLower(args[0])]
	if !ok {
		return nil, invalidf("unknown kind %q (known: %s)", args[0], knownKinds())
	}
	var out []fakecluster.Object
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == kind && (len(args) < 2 || o.GetName() == args[1]) {
			out = append(out, o)
		}
	}
	if len(args) == 2 && len(out) == 0 {
		return nil, invalidf("%s %q not found%s", kind, args[1], inNamespaceText(ns))
	}
	return out, nil
}

func knownKinds() string {
	seen := map[string]bool{}
	var kinds []string
	for _, k := range kindAliases {
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	return strings.Join(kinds, ", ")
}

func inNamespaceText(ns string) string {
	if ns == "" {
		return " in any namespace"
	}
	return fmt.Sprintf(" in namespace %q", ns)
}
