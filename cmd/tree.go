package cmd

import (
	"context"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

func newTreeCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "tree [NAME]",
		Short: "Show the tree of one root installation, or of all (runs nothing)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.settings(cmd)
			if err != nil {
				return err
			}
			return f.treeRun(cmd.Context(), s, args)
		},
	}
}

func (f *factory) treeRun(_ context.Context, s *settings, args []string) error {
	if err := s.checkOutput(objectFormats...); err != nil {
		return err
	}
	ss, err := openSession(s)
	if err != nil {
		return err
	}
	defer ss.close()
	objs := ss.cluster().Objects()
	if len(args) == 1 {
		root, err := findOne(objs, "Installation", args[0], s.Namespace)
		if err != nil {
			return err
		}
		objs = subtree(objs, root)
	}
	return f.printObjects(s, objs)
}

// findOne finds the object of kind named name, in namespace ns or, when ns is
// empty, in any namespace. Not found, or found in several namespaces without
// -n, is invalid input.
func findOne(objs []fakecluster.Object, kind, name, ns string) (fakecluster.Object, error) {
	var found []fakecluster.Object
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == kind && o.GetName() == name && (ns == "" || o.GetNamespace() == ns) {
			found = append(found, o)
		}
	}
	switch len(found) {
	case 0:
		return nil, invalidf("%s %q not found%s", kind, name, inNamespaceText(ns))
	case 1:
		return found[0], nil
	}
	return nil, invalidf("%s %q exists in namespaces %s and %s: say which with -n", kind, name,
		found[0].GetNamespace(), found[1].GetNamespace())
}

// findKey is findOne returning the object's key.
func findKey(objs []fakecluster.Object, kind, name, ns string) (types.NamespacedName, error) {
	o, err := findOne(objs, kind, name, ns)
	if err != nil {
		return types.NamespacedName{}, err
	}
	return types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}, nil
}

// subtree returns root and every object that it owns, directly or not.
func subtree(objs []fakecluster.Object, root fakecluster.Object) []fakecluster.Object {
	byOwner := map[types.UID][]fakecluster.Object{}
	for _, o := range objs {
		for _, ref := range o.GetOwnerReferences() {
			byOwner[ref.UID] = append(byOwner[ref.UID], o)
		}
	}
	out := []fakecluster.Object{root}
	for i := 0; i < len(out); i++ {
		out = append(out, byOwner[out[i].GetUID()]...)
	}
	return out
}
