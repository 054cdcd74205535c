package simcluster

import (
	"context"
	"fmt"
	"slices"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Garbage collection through owner references, as kube-controller-manager's
// garbage collector (pkg/controller/garbagecollector) does it: when an
// object is gone, the objects whose metadata.ownerReferences name it by uid
// are deleted (with background propagation, so theirs go too), unless
// another owner they name still exists: then only the reference to the
// deleted owner is removed. This happens at the next controller step (the
// next client call), not within the call that deleted the owner. The
// collector learns of every deletion where the store deletes the object
// (the tracker's Delete, see ownerDeleted), whichever path deleted it: the
// client's Delete or DeleteAllOf, an update or patch that removes the last
// finalizer of an object marked for deletion, the namespace controller, the
// CRD deletion of custom resources, the token, TTL and garbage collectors,
// as kube-controller-manager's learns of every deletion from its informers.
// A deletion with propagation Orphan removes the references at once and
// deletes nothing. Foreground deletion is taken as background: the owner
// goes at once (no foregroundDeletion finalizer), blockOwnerDeletion is not
// looked at. The simulation's own API server (self.go) is left alone.

// gcOwner is a deleted object whose dependents the collector looks at.
type gcOwner struct {
	uid types.UID
	ref objectRef
}

// storedUID returns the uid of the stored object of kind gvk named by obj,
// or "" when there is none.
func (c *Cluster) storedUID(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object) types.UID {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	if err := c.inner.Get(ctx, client.ObjectKeyFromObject(obj), u); err != nil {
		return ""
	}
	return u.GetUID()
}

// ownerDeleted is the tracker's hook (tracker.deleted): the object ref of
// uid is gone, and the collector looks at its dependents in the next step.
// It only queues: the tracker calls it within a write of the store.
func (c *Cluster) ownerDeleted(ref objectRef, uid types.UID) {
	if c.own == nil {
		c.gc = append(c.gc, gcOwner{uid: uid, ref: ref})
	}
}

// orphaning reports whether opts ask for propagation Orphan.
func orphaning(opts *client.DeleteOptions) bool {
	p := opts.PropagationPolicy
	return p != nil && *p == metav1.DeletePropagationOrphan
}

// orphan removes now the references to the owners uids from their
// dependents, for a deletion with propagation Orphan, and takes the owners
// out of the collector's queue from index from on (what the deletion
// queued): their dependents stay. An owner still held by finalizers is
// orphaned all the same (Kubernetes' orphan finalizer does it before the
// owner goes). The caller holds the lock.
func (c *Cluster) orphan(ctx context.Context, from int, uids []types.UID) error {
	if c.own != nil {
		return nil
	}
	if from < len(c.gc) {
		for _, o := range c.gc[from:] {
			// A claim's volume is the PersistentVolume controller's, not the
			// garbage collector's: it goes (or is Released) all the same.
			if o.ref.gvk == pvcGVK && slices.Contains(uids, o.uid) {
				if err := c.reclaimVolumes(ctx, o.uid); err != nil { // volumes.go
					return err
				}
			}
		}
		c.gc = append(c.gc[:from], slices.DeleteFunc(slices.Clone(c.gc[from:]), func(o gcOwner) bool { return slices.Contains(uids, o.uid) })...)
	}
	for _, uid := range uids {
		if uid == "" {
			continue
		}
		err := c.forEachDependent(ctx, uid, func(dep *unstructured.Unstructured, _ schema.GroupVersionKind) error {
			return c.dropOwnerRef(ctx, dep, uid)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// queuedSince returns the uids of the owners queued from index from on.
func (c *Cluster) queuedSince(from int) []types.UID {
	var uids []types.UID
	for _, o := range c.gc[min(from, len(c.gc)):] {
		uids = append(uids, o.uid)
	}
	return uids
}

// collectGarbage deletes the dependents of the owners that are gone (see
// above), in the order they were deleted; the dependents it deletes are
// queued in turn (ownerDeleted). A cluster-scoped dependent of a namespaced
// owner is left alone: Kubernetes looks a namespaced owner up in the
// dependent's namespace, so such a reference never resolves and the
// collector never collects the object (kube-controller-manager reports it
// with an OwnerRefInvalidNamespace event, which lscli does not record). The
// caller holds the lock.
func (c *Cluster) collectGarbage(ctx context.Context) error {
	if c.own != nil {
		c.gc = nil
		return nil
	}
	for len(c.gc) > 0 {
		owner := c.gc[0]
		c.gc = c.gc[1:]
		if owner.ref.gvk == pvcGVK {
			if err := c.reclaimVolumes(ctx, owner.uid); err != nil { // volumes.go
				return err
			}
		}
		if owner.ref.gvk.GroupKind() == clusterRoleGroupKind {
			if err := c.aggregateClusterRoles(ctx); err != nil { // aggregation.go
				return err
			}
		}
		err := c.forEachDependent(ctx, owner.uid, func(dep *unstructured.Unstructured, gvk schema.GroupVersionKind) error {
			if !c.namespaced(gvk) && c.namespaced(owner.ref.gvk) {
				return nil // an owner reference Kubernetes cannot resolve: never collected
			}
			solid, err := c.hasOtherOwner(ctx, dep, owner.uid)
			if err != nil {
				return err
			}
			if solid {
				return c.dropOwnerRef(ctx, dep, owner.uid)
			}
			return c.deleteDependent(ctx, dep, gvk)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// refObject is an object with the namespace and name of ref.
func refObject(ref objectRef) client.Object {
	u := &unstructured.Unstructured{}
	u.SetNamespace(ref.namespace)
	u.SetName(ref.name)
	return u
}

// forEachDependent calls fn for each stored object with an owner reference
// to uid, in the order of kind, namespace and name, as the tracker's owner
// index names them (the simulation's own API server, which keeps none, is
// left alone).
func (c *Cluster) forEachDependent(ctx context.Context, uid types.UID, fn func(*unstructured.Unstructured, schema.GroupVersionKind) error) error {
	type dependent struct {
		gvk      schema.GroupVersionKind
		ns, name string
	}
	var deps []dependent
	for ref, gvk := range c.tracker.owners.of(uid) {
		if d := (dependent{gvk, ref.ns, ref.name}); !slices.Contains(deps, d) {
			deps = append(deps, d)
		}
	}
	sort.Slice(deps, func(i, j int) bool {
		a, b := deps[i], deps[j]
		if a.gvk != b.gvk {
			return a.gvk.String() < b.gvk.String()
		}
		if a.ns != b.ns {
			return a.ns < b.ns
		}
		return a.name < b.name
	})
	for _, d := range deps {
		dep := &unstructured.Unstructured{}
		dep.SetGroupVersionKind(d.gvk)
		switch err := c.inner.Get(ctx, client.ObjectKey{Namespace: d.ns, Name: d.name}, dep); {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return fmt.Errorf("simulated cluster %s: garbage collector: get %s %s/%s: %w", c.key, d.gvk.Kind, d.ns, d.name, err)
		}
		dep.SetGroupVersionKind(d.gvk)
		if err := fn(dep, d.gvk); err != nil {
			return err
		}
	}
	return nil
}

// hasOtherOwner reports whether an owner dep names, other than uid, exists.
func (c *Cluster) hasOtherOwner(ctx context.Context, dep *unstructured.Unstructured, uid types.UID) (bool, error) {
	for _, r := range dep.GetOwnerReferences() {
		if r.UID == uid {
			continue
		}
		gv, err := schema.ParseGroupVersion(r.APIVersion)
		if err != nil {
			continue // invalid: the collector counts it as absent
		}
		gvk := gv.WithKind(r.Kind)
		ns := ""
		if c.namespaced(gvk) {
			ns = dep.GetNamespace()
		}
		if c.storedUID(ctx, gvk, refObject(objectRef{namespace: ns, name: r.Name})) == r.UID {
			return true, nil
		}
	}
	return false, nil
}

// dropOwnerRef removes dep's owner references to uid.
func (c *Cluster) dropOwnerRef(ctx context.Context, dep *unstructured.Unstructured, uid types.UID) error {
	dep.SetOwnerReferences(slices.DeleteFunc(dep.GetOwnerReferences(), func(r metav1.OwnerReference) bool { return r.UID == uid }))
	if err := c.inner.Update(ctx, dep); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("simulated cluster %s: garbage collector: remove owner reference of %s %s: %w", c.key, dep.GetKind(), objectName(dep), err)
	}
	return nil
}

// deleteDependent deletes dep, whose owners are gone; the store's deletion
// hands it to the collector in turn.
func (c *Cluster) deleteDependent(ctx context.Context, dep *unstructured.Unstructured, gvk schema.GroupVersionKind) error {
	opts := []client.DeleteOption{client.PropagationPolicy(metav1.DeletePropagationBackground)}
	var err error
	if gvk.GroupKind() == (schema.GroupKind{Kind: "Namespace"}) {
		err = c.deleteNamespace(ctx, dep)
	} else {
		err = c.inner.Delete(ctx, dep, opts...)
	}
	if client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("simulated cluster %s: garbage collector: delete %s %s: %w", c.key, gvk.Kind, objectName(dep), err)
	}
	return c.afterDelete(ctx, gvk, dep.GetNamespace(), dep.GetName())
}

// objectName is namespace/name, or the name of a cluster-scoped object.
func objectName(o metav1.Object) string {
	if o.GetNamespace() == "" {
		return o.GetName()
	}
	return o.GetNamespace() + "/" + o.GetName()
}
