package action

import (
	"context"
	"errors"
	"fmt"
	"slices"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
	// idle, when set, may say why there is nothing to do for obj (one of
	// objs, the stored objects): then nothing changes and nothing runs, and
	// the result says why (Run.Idle).
	idle func(objs []fakecluster.Object, obj fakecluster.Object) string
	// self reports on the object itself rather than on its root.
	self bool
}

// operate runs ops, one per object named, together: every object is looked
// up (in any namespace, or op.namespace) and checked before anything
// changes, so an unknown or ambiguous name is invalid input and nothing
// changes; then each is changed, in order, and the simulation runs once, as
// after a `kubectl delete` of several objects. An object named twice is
// changed once. idle is asked only of a single operation.
func operate(ctx context.Context, cfg *Configuration, opts RunOptions, ops ...operation) (*Run, error) {
	ss, err := openExisting(cfg, changeState)
	if errors.Is(err, state.ErrNoState) {
		return nil, notFoundWithoutState(cfg, ops[0].kind, ops[0].name)
	}
	if err != nil {
		return nil, err
	}
	defer ss.close()
	// The stored objects, not copies: finding the objects and their roots
	// only reads them, and act gets a copy of its own.
	objs := ss.cluster().SharedObjects()
	found := make([]fakecluster.Object, 0, len(ops))
	seen := map[types.UID]bool{}
	var roots []landscape.ObjectRef
	for _, op := range ops {
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
		if !slices.Contains(roots, ref) {
			roots = append(roots, ref)
		}
		if seen[obj.GetUID()] {
			found = append(found, nil)
			continue
		}
		seen[obj.GetUID()] = true
		found = append(found, obj)
	}
	if len(ops) == 1 && ops[0].idle != nil {
		if why := ops[0].idle(objs, found[0]); why != "" {
			return idleRun(ctx, ss, roots, why)
		}
	}
	for i, op := range ops {
		if found[i] == nil {
			continue
		}
		err := op.act(ctx, ss.cluster(), found[i].DeepCopyObject().(fakecluster.Object))
		if err != nil && !(i > 0 && apierrors.IsNotFound(err)) {
			return nil, err
		}
		// Not found after an earlier object's change: it went with its
		// owner, as kubectl's delete of both would find.
	}
	return runAndSave(ctx, ss, roots, opts)
}

// operateNamed runs together the operations build makes of names, or of
// single when names is empty (an action's Kind, Name and Namespace): an
// invalid name is invalid input before anything is looked up.
func operateNamed(ctx context.Context, cfg *Configuration, opts RunOptions, names []ObjectName, single ObjectName,
	build func(ObjectName) (operation, error)) (*Run, error) {
	if len(names) == 0 {
		names = []ObjectName{single}
	}
	ops := make([]operation, 0, len(names))
	for _, n := range names {
		op, err := build(n)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	return operate(ctx, cfg, opts, ops...)
}

// ObjectName names an object as a user does: Kind as KindAliases spell it
// (empty for the action's default kind), Name, and Namespace (empty: any).
type ObjectName struct {
	Kind, Name, Namespace string
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
