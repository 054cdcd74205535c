package landscape

import (
	"context"
	"fmt"
	"reflect"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/semantic"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// ObjectRef names one object of a kind.
type ObjectRef struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

func (r ObjectRef) String() string { return fmt.Sprintf("%s %s/%s", r.Kind, r.Namespace, r.Name) }

// ApplyResult says what Apply did with each object.
type ApplyResult struct {
	Created, Updated, Unchanged []ObjectRef
	// ChangedRoots are the root installations that were created or whose spec
	// changed: they need a new job.
	ChangedRoots []types.NamespacedName
	// ChangedStandalone are the stand-alone Executions and DeployItems (see
	// IsStandalone) that were created or whose spec changed: they need a new
	// job too.
	ChangedStandalone []ObjectRef
	// Operated are the updated objects on which the file put back (or
	// changed) the operation annotation: Landscaper removes it when it acts
	// on it, and kubectl apply sets it again, so it acts again.
	Operated []ObjectRef
}

// Apply creates the objects that do not exist and updates those whose spec,
// labels or annotations differ, as `kubectl apply` does: labels and
// annotations in the file are added or changed, others are kept; status in
// the file is kept only on creation. The operation annotation is no
// exception: kubectl's three-way merge (CreateThreeWayJSONMergePatch for
// Landscaper's custom resources) adds every entry of the file the live
// object lacks, so a file with `operation: reconcile` annotates its object
// again once Landscaper has removed the annotation (see Operated).
func Apply(ctx context.Context, c *fakecluster.Cluster, objs []fakecluster.Object) (ApplyResult, error) {
	var res ApplyResult
	for _, obj := range objs {
		kind, err := fakecluster.KindOf(c.Scheme(), obj)
		if err != nil {
			return res, err
		}
		ref := ObjectRef{Kind: kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}
		created, updated, specChanged, operated, err := applyOne(ctx, c, obj.DeepCopyObject().(fakecluster.Object))
		if err != nil {
			return res, fmt.Errorf("apply %s: %w", ref, err)
		}
		switch {
		case created:
			res.Created = append(res.Created, ref)
		case updated:
			res.Updated = append(res.Updated, ref)
		default:
			res.Unchanged = append(res.Unchanged, ref)
		}
		if inst, ok := obj.(*lsv1alpha1.Installation); ok && dataflow.IsRoot(inst) && (created || specChanged) {
			res.ChangedRoots = append(res.ChangedRoots, types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name})
		}
		if IsStandalone(kind, obj) && (created || specChanged) {
			res.ChangedStandalone = append(res.ChangedStandalone, ref)
		}
		if operated {
			res.Operated = append(res.Operated, ref)
		}
	}
	return res, nil
}

// applyOne creates or updates obj, and says which of the two it did:
// updated is any change (labels and annotations too), specChanged one of
// the spec, operated one of the operation annotation (an update that sets
// it, see ApplyResult.Operated).
func applyOne(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object) (created, updated, specChanged, operated bool, err error) {
	key := types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	live := newLike(obj)
	err = c.Get(ctx, key, live)
	if apierrors.IsNotFound(err) {
		return true, false, false, false, c.Create(ctx, obj)
	}
	if err != nil {
		return false, false, false, false, err
	}
	before := newLike(obj) // only compared: the stored object, not a copy
	if err := c.GetUnsafe(ctx, key, before); err != nil {
		return false, false, false, false, err
	}
	fakecluster.CopySpec(live, obj)
	live.SetLabels(merge(live.GetLabels(), obj.GetLabels()))
	live.SetAnnotations(merge(live.GetAnnotations(), obj.GetAnnotations()))
	specChanged = !fakecluster.SpecEqual(before, live)
	if !specChanged && semantic.DeepEqual(before, live) {
		return false, false, false, false, nil
	}
	op := lsv1alpha1.OperationAnnotation
	operated = live.GetAnnotations()[op] != before.GetAnnotations()[op]
	return false, true, specChanged, operated, c.Update(ctx, live)
}

// newLike returns a new empty object of obj's Go type.
func newLike(obj fakecluster.Object) fakecluster.Object {
	return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(fakecluster.Object)
}

// merge returns live with the entries of file added or changed, as the
// additions and changes of kubectl's three-way merge (the file against the
// live object). kubectl also deletes the entries that its last apply set
// and the file no longer has; lscli keeps no last-applied configuration, so
// it keeps them.
func merge(live, file map[string]string) map[string]string {
	if len(file) == 0 {
		return live
	}
	out := make(map[string]string, len(live)+len(file))
	for k, v := range live {
		out[k] = v
	}
	for k, v := range file {
		out[k] = v
	}
	return out
}

// EnsureDefaultContexts creates a Context named "default" in each namespace
// that has none: Landscaper's context controller does the same on a cluster,
// and installations and deployers need it.
func EnsureDefaultContexts(ctx context.Context, c *fakecluster.Cluster, namespaces []string) error {
	for _, ns := range namespaces {
		key := types.NamespacedName{Namespace: ns, Name: lsv1alpha1.DefaultContextName}
		err := c.Get(ctx, key, &lsv1alpha1.Context{})
		if !apierrors.IsNotFound(err) {
			if err != nil {
				return err
			}
			continue
		}
		obj := &lsv1alpha1.Context{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: lsv1alpha1.DefaultContextName}}
		if err := c.Create(ctx, obj); err != nil {
			return fmt.Errorf("create default context in namespace %s: %w", ns, err)
		}
	}
	return nil
}

// Roots returns every root installation, sorted by namespace and name.
func Roots(ctx context.Context, c *fakecluster.Cluster) ([]types.NamespacedName, error) {
	list := &lsv1alpha1.InstallationList{}
	if err := c.List(ctx, list, fakecluster.ListOptions{}); err != nil {
		return nil, err
	}
	var out []types.NamespacedName
	for i := range list.Items {
		if dataflow.IsRoot(&list.Items[i]) {
			out = append(out, types.NamespacedName{Namespace: list.Items[i].Namespace, Name: list.Items[i].Name})
		}
	}
	return out, nil
}
