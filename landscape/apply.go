package landscape

import (
	"bytes"
	"context"
	"encoding/json"
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
// labels or annotations differ, as client-side `kubectl apply` does, with
// last as its record of what each object's last apply applied (kubectl's
// annotation kubectl.kubernetes.io/last-applied-configuration; see
// LastApplied): labels, annotations and spec fields in the file are added
// or changed; those the last apply set and the file no longer has are
// deleted; the others (set by controllers) are kept; status in the file is
// kept only on creation. An object without a record (created before lscli
// kept them, or last nil) is updated as kubectl updates one without the
// annotation: nothing is deleted from its labels and annotations, and its
// spec is the file's. Apply records what it applied in last, when not nil.
//
// The operation annotation is no exception: kubectl's three-way merge
// (CreateThreeWayJSONMergePatch for Landscaper's custom resources) adds
// every entry of the file the live object lacks, so a file with
// `operation: reconcile` annotates its object again once Landscaper has
// removed the annotation (see Operated).
func Apply(ctx context.Context, c *fakecluster.Cluster, objs []fakecluster.Object, last LastApplied) (ApplyResult, error) {
	var res ApplyResult
	for _, obj := range objs {
		kind, err := fakecluster.KindOf(c.Scheme(), obj)
		if err != nil {
			return res, err
		}
		ref := ObjectRef{Kind: kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}
		config, err := appliedConfig(obj)
		if err != nil {
			return res, fmt.Errorf("apply %s: %w", ref, err)
		}
		rec, hasRec := last[ref]
		var original json.RawMessage
		if hasRec {
			original = rec.Config
		}
		created, updated, specChanged, operated, uid, err := applyOne(ctx, c, obj.DeepCopyObject().(fakecluster.Object), rec.UID, original, config)
		if err != nil {
			return res, fmt.Errorf("apply %s: %w", ref, err)
		}
		if last != nil {
			last[ref] = AppliedConfig{UID: uid, Config: config}
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
// it, see ApplyResult.Operated). original is the configuration the last
// apply applied to the object whose uid was recUID, nil when there is no
// record; config is obj's (see appliedConfig). uid is the object's.
func applyOne(ctx context.Context, c *fakecluster.Cluster, obj fakecluster.Object, recUID types.UID, original, config json.RawMessage) (
	created, updated, specChanged, operated bool, uid types.UID, err error) {
	key := types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	live := newLike(obj)
	err = c.Get(ctx, key, live)
	if apierrors.IsNotFound(err) {
		err = c.Create(ctx, obj)
		return true, false, false, false, obj.GetUID(), err
	}
	if err != nil {
		return false, false, false, false, "", err
	}
	uid = live.GetUID()
	before := newLike(obj) // only compared: the stored object, not a copy
	if err := c.GetUnsafe(ctx, key, before); err != nil {
		return false, false, false, false, uid, err
	}
	// With the file as the last apply applied it, and its spec as the live
	// object's, the three-way merge deletes nothing and changes no spec:
	// what it makes of the labels and annotations is what merge makes.
	unchanged := original != nil && bytes.Equal(original, config) && fakecluster.SpecEqual(before, obj)
	if original != nil && recUID == uid && !unchanged {
		if err := mergeApplied(live, obj, original, config); err != nil {
			return false, false, false, false, uid, err
		}
	} else {
		fakecluster.CopySpec(live, obj)
		live.SetLabels(merge(live.GetLabels(), obj.GetLabels()))
		live.SetAnnotations(merge(live.GetAnnotations(), obj.GetAnnotations()))
	}
	specChanged = !fakecluster.SpecEqual(before, live)
	if !specChanged && semantic.DeepEqual(before, live) {
		return false, false, false, false, uid, nil
	}
	op := lsv1alpha1.OperationAnnotation
	operated = live.GetAnnotations()[op] != before.GetAnnotations()[op]
	return false, true, specChanged, operated, uid, c.Update(ctx, live)
}

// newLike returns a new empty object of obj's Go type.
func newLike(obj fakecluster.Object) fakecluster.Object {
	return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(fakecluster.Object)
}

// merge returns live with the entries of file added or changed, as the
// additions and changes of kubectl's three-way merge (the file against the
// live object) when the object has no record of its last apply: kubectl
// then deletes nothing.
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
