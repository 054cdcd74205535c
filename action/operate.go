package action

import (
	"context"
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/state"
)

// operation is one operator action on a saved simulation: find the object,
// change it, run to the end, report on its root.
type operation struct {
	kind      string
	name      string
	namespace string
	// act changes obj (a copy of the stored object); it runs before the simulation.
	act func(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object) error
	// check may refuse the object before anything changes (invalid input).
	check func(objs []fakecluster.Object, obj fakecluster.Object) error
	// idle, when set, may say why there is nothing to do for obj: then
	// nothing changes and nothing runs, and the result says why (Run.Idle).
	idle func(obj fakecluster.Object) string
	// self reports on the object itself rather than on its root.
	self bool
}

// operate runs op: the object is looked up in any namespace (or op.namespace),
// so an unknown or ambiguous name is invalid input and nothing changes.
func operate(ctx context.Context, cfg *Configuration, op operation, opts RunOptions) (*Run, error) {
	ss, err := openExisting(cfg, changeState)
	if errors.Is(err, state.ErrNoState) {
		return nil, notFoundWithoutState(cfg, op.kind, op.name)
	}
	if err != nil {
		return nil, err
	}
	defer ss.close()
	// The stored objects, not copies: finding the object and its root only
	// reads them, and act gets a copy of its own.
	objs := ss.cluster().SharedObjects()
	obj, err := FindOne(objs, op.kind, op.name, op.namespace)
	if err != nil {
		return nil, err
	}
	if op.check != nil {
		if err := op.check(objs, obj); err != nil {
			return nil, err
		}
	}
	report := obj
	if !op.self {
		report = rootOf(objs, obj)
	}
	ref, err := refOf(ss.cluster(), report)
	if err != nil {
		return nil, err
	}
	roots := []landscape.ObjectRef{ref}
	if op.idle != nil {
		if why := op.idle(obj); why != "" {
			return idleRun(ctx, ss, roots, why)
		}
	}
	if err := op.act(ctx, ss.cluster(), obj.DeepCopyObject().(fakecluster.Object)); err != nil {
		return nil, err
	}
	return runAndSave(ctx, ss, roots, opts)
}

// refOf names obj with its kind.
func refOf(c *fakecluster.Cluster, obj fakecluster.Object) (landscape.ObjectRef, error) {
	kind, err := fakecluster.KindOf(c.Scheme(), obj)
	return landscape.ObjectRef{Kind: kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}, err
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
	// Controllers that own each other in a cycle (a state file edited by
	// hand) have no root: the walk stops where it would come round again.
	seen := map[types.UID]bool{obj.GetUID(): true}
	for {
		ref := metav1.GetControllerOf(obj)
		if ref == nil || byUID[ref.UID] == nil || seen[ref.UID] {
			return obj
		}
		seen[ref.UID] = true
		obj = byUID[ref.UID]
	}
}

// requireRoot refuses installations that are not roots.
func requireRoot(verb string) func([]fakecluster.Object, fakecluster.Object) error {
	return func(objs []fakecluster.Object, obj fakecluster.Object) error {
		inst, ok := obj.(*lsv1alpha1.Installation)
		if !ok || dataflow.IsRoot(inst) {
			return nil
		}
		root := rootOf(objs, obj)
		return Invalidf("Installation %q is a subinstallation of %q: only root installations can be %s (try %q)",
			inst.Name, root.GetName(), verb, root.GetName())
	}
}

// setOperation returns an act that puts the operation annotation op on the object.
func setOperation(op lsv1alpha1.Operation) func(context.Context, *fakecluster.Cluster, fakecluster.Object) error {
	return func(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object) error {
		return SetOperation(ctx, c, obj, keyOf(obj), op)
	}
}

// SetOperation puts the operation annotation op on the object named key;
// obj selects the kind. It is how a user asks for reconcile or interrupt.
func SetOperation(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object, key types.NamespacedName, op lsv1alpha1.Operation) error {
	if err := c.Get(ctx, key, obj); err != nil {
		return err
	}
	ann := obj.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	if ann[lsv1alpha1.OperationAnnotation] == string(op) {
		return nil
	}
	ann[lsv1alpha1.OperationAnnotation] = string(op)
	obj.SetAnnotations(ann)
	return c.Update(ctx, obj)
}

// DeleteObject deletes obj, as `kubectl delete` does: with finalizers it is
// only marked, and its controller takes it from there.
func DeleteObject(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object) error {
	if err := c.Delete(ctx, obj); err != nil {
		return fmt.Errorf("delete %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
	}
	return nil
}
