package cmd

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
)

// operation is one operator action on a saved simulation: find the object,
// change it, run to the end, report on its root.
type operation struct {
	kind string
	name string
	// act changes obj (a copy of the stored object); it runs before the simulation.
	act func(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object) error
	// check may refuse the object before anything changes (invalid input).
	check func(objs []fakecluster.Object, obj fakecluster.Object) error
}

// operate runs op: the object is looked up in any namespace (or -n), so an
// unknown or ambiguous name is invalid input and nothing changes.
func (f *factory) operate(ctx context.Context, s *settings, op operation) error {
	if err := s.checkOutput(objectFormats...); err != nil {
		return err
	}
	ss, err := openSession(s)
	if err != nil {
		return err
	}
	defer ss.close()
	objs := ss.cluster().Objects()
	obj, err := findOne(objs, op.kind, op.name, s.Namespace)
	if err != nil {
		return err
	}
	if op.check != nil {
		if err := op.check(objs, obj); err != nil {
			return err
		}
	}
	if err := op.act(ctx, ss.cluster(), obj); err != nil {
		return err
	}
	return f.runAndReport(ctx, ss, []types.NamespacedName{keyOf(rootOf(objs, obj))})
}

func keyOf(obj metav1.Object) types.NamespacedName {
	return types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
}

// rootOf follows controller owner references up to the root installation.
func rootOf(objs []fakecluster.Object, obj fakecluster.Object) fakecluster.Object {
	byUID := map[types.UID]fakecluster.Object{}
	for _, o := range objs {
		byUID[o.GetUID()] = o
	}
	for {
		ref := metav1.GetControllerOf(obj)
		if ref == nil || byUID[ref.UID] == nil {
			return obj
		}
		obj = byUID[ref.UID]
	}
}

// requireRoot refuses installations that are not roots.
func requireRoot(verb string) func([]fakecluster.Object, fakecluster.Object) error {
	return func(objs []fakecluster.Object, obj fakecluster.Object) error {
		inst, ok := obj.(*lsv1alpha1.Installation)
		if !ok || engine.IsRoot(inst) {
			return nil
		}
		root := rootOf(objs, obj)
		return invalidf("Installation %q is a subinstallation of %q: only root installations can be %s (try %q)",
			inst.Name, root.GetName(), verb, root.GetName())
	}
}
