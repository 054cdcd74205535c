package action

import (
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// KindAliases maps what users type to kinds, as kubectl's short names do.
var KindAliases = map[string]string{
	"installation": "Installation", "installations": "Installation", "inst": "Installation",
	"execution": "Execution", "executions": "Execution", "exec": "Execution",
	"deployitem": "DeployItem", "deployitems": "DeployItem", "di": "DeployItem",
	"target": "Target", "targets": "Target", "tgt": "Target", "tg": "Target",
	"dataobject": "DataObject", "dataobjects": "DataObject", "dobj": "DataObject", "do": "DataObject",
	"context": "Context", "contexts": "Context", "ctx": "Context",
	"componentversionoverwrites": "ComponentVersionOverwrites", "componentversionoverwrite": "ComponentVersionOverwrites",
	"compveroverwrite": "ComponentVersionOverwrites", "cvo": "ComponentVersionOverwrites",
	"targetsync": "TargetSync", "targetsyncs": "TargetSync", "tgs": "TargetSync",
	"secret": "Secret", "secrets": "Secret", "configmap": "ConfigMap", "configmaps": "ConfigMap", "cm": "ConfigMap",
}

// FindOne finds the object of kind named name, in namespace ns or, when ns is
// empty, in any namespace. Not found, or found in several namespaces without
// a namespace, is invalid input.
func FindOne(objs []fakecluster.Object, kind, name, ns string) (fakecluster.Object, error) {
	var found []fakecluster.Object
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == kind && o.GetName() == name && (ns == "" || o.GetNamespace() == ns) {
			found = append(found, o)
		}
	}
	switch len(found) {
	case 0:
		return nil, Invalid(&NotFoundError{Kind: kind, Name: name, Namespace: ns})
	case 1:
		return found[0], nil
	}
	return nil, Invalidf("%s %q exists in namespaces %s and %s: say which with -n", kind, name,
		found[0].GetNamespace(), found[1].GetNamespace())
}

// Subtree returns root and every object that it owns, directly or not.
func Subtree(objs []fakecluster.Object, root fakecluster.Object) []fakecluster.Object {
	at := ownedBy(len(objs), func(i int) types.UID { return objs[i].GetUID() }, func(i int) []types.UID {
		refs := objs[i].GetOwnerReferences()
		uids := make([]types.UID, len(refs))
		for j, ref := range refs {
			uids[j] = ref.UID
		}
		return uids
	}, root.GetUID())
	out := make([]fakecluster.Object, 0, len(at)+1)
	out = append(out, root)
	for _, i := range at {
		out = append(out, objs[i])
	}
	return out
}

// InNamespace keeps the objects of ns; an empty ns keeps all.
func InNamespace(objs []fakecluster.Object, ns string) []fakecluster.Object {
	if ns == "" {
		return objs
	}
	out := objs[:0:0]
	for _, o := range objs {
		if o.GetNamespace() == ns {
			out = append(out, o)
		}
	}
	return out
}

// selectObjects keeps the objects of namespace ns (all when empty) that match
// args: [KIND [NAME]]. An unknown kind, or a name that matches nothing, is
// invalid input.
func selectObjects(objs []fakecluster.Object, ns string, args []string) ([]fakecluster.Object, error) {
	objs = InNamespace(objs, ns)
	if len(args) == 0 {
		return objs, nil
	}
	kind, err := ResolveKind(args[0])
	if err != nil {
		return nil, err
	}
	var out []fakecluster.Object
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == kind && (len(args) < 2 || o.GetName() == args[1]) {
			out = append(out, o)
		}
	}
	if len(args) == 2 && len(out) == 0 {
		return nil, Invalid(&NotFoundError{Kind: kind, Name: args[1], Namespace: ns})
	}
	return out, nil
}

// ResolveKind returns the kind a user means by s: a kind in any case,
// singular or plural, or a short name (KindAliases); a Landscaper kind may
// be followed by its API group, with or without the version, as kubectl
// and `lscli get -o name` write it (installations.landscaper.gardener.cloud,
// installation.v1alpha1.landscaper.gardener.cloud). An unknown kind is
// invalid input.
func ResolveKind(s string) (string, error) {
	name, group, qualified := strings.Cut(strings.ToLower(s), ".")
	kind, ok := KindAliases[name]
	if ok && qualified {
		gv := lsv1alpha1.SchemeGroupVersion
		ok = (group == gv.Group || group == gv.Version+"."+gv.Group) && fakecluster.NewScheme().Recognizes(gv.WithKind(kind))
	}
	if !ok {
		return "", Invalidf("unknown kind %q (known: %s)", s, knownKinds())
	}
	return kind, nil
}

func knownKinds() string { return strings.Join(kindList(), ", ") }

// kindList is every kind of KindAliases, sorted.
func kindList() []string {
	seen := map[string]bool{}
	var kinds []string
	for _, k := range KindAliases {
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	return kinds
}

// NotFoundError is the answer for a named object of the simulation that
// does not exist (kubectl's NotFound): invalid input, unless the user asked
// to ignore it (get --ignore-not-found).
type NotFoundError struct {
	Kind, Name string
	// Namespace is where it was looked for; empty means every namespace.
	Namespace string
	// Because, when set, is why nothing could be found (no simulation yet);
	// it stands in the message instead of the namespace.
	Because error
}

func (e *NotFoundError) Error() string {
	if e.Because != nil {
		return fmt.Sprintf("%s %q not found: %v", e.Kind, e.Name, e.Because)
	}
	return fmt.Sprintf("%s %q not found%s", e.Kind, e.Name, inNamespaceText(e.Namespace))
}

// Unwrap returns Because.
func (e *NotFoundError) Unwrap() error { return e.Because }

func inNamespaceText(ns string) string {
	if ns == "" {
		return " in any namespace"
	}
	return fmt.Sprintf(" in namespace %q", ns)
}

// findTarget finds the Target name, in namespace ns or, when ns is empty, in
// the only namespace that has one by that name.
func findTarget(objs []fakecluster.Object, ns, name string) (*lsv1alpha1.Target, error) {
	var found []*lsv1alpha1.Target
	for _, o := range objs {
		if t, ok := o.(*lsv1alpha1.Target); ok && t.Name == name && (ns == "" || t.Namespace == ns) {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		if elsewhere := targetNamespaces(objs, name); ns != "" && len(elsewhere) > 0 {
			// kubectl's habit: -n for the namespace of the cluster's
			// objects, as in the guided tour's "kubectl get configmap -n
			// example hello-world".
			return nil, Invalidf("Target %q not found%s; it is in namespace %s (-n names the Target's namespace: "+
				"get --target lists the objects of every namespace of its cluster)", name, inNamespaceText(ns), strings.Join(elsewhere, ", "))
		}
		return nil, Invalidf("Target %q not found%s", name, inNamespaceText(ns))
	case 1:
		return found[0], nil
	}
	var namespaces []string
	for _, t := range found {
		namespaces = append(namespaces, t.Namespace)
	}
	sort.Strings(namespaces)
	return nil, Invalidf("Target %q exists in namespaces %s: choose one with -n", name, strings.Join(namespaces, ", "))
}

// targetNamespaces returns the namespaces, sorted, that have a Target name.
func targetNamespaces(objs []fakecluster.Object, name string) []string {
	var namespaces []string
	for _, o := range objs {
		if t, ok := o.(*lsv1alpha1.Target); ok && t.Name == name {
			namespaces = append(namespaces, t.Namespace)
		}
	}
	sort.Strings(namespaces)
	return namespaces
}
