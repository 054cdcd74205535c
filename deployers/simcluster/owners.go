package simcluster

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// storedRef names a stored object by resource, namespace and name, as the
// tracker stores it.
type storedRef struct {
	gvr      schema.GroupVersionResource
	ns, name string
}

// ownerIndex maps the uid of an owner to the stored objects whose
// metadata.ownerReferences name it, with their kinds, so that the garbage
// collector (gc.go) finds the dependents of a deleted owner without listing
// every object of every kind (a helm release's history alone is megabytes
// of Secrets, and a release deletes objects on every upgrade).
type ownerIndex struct {
	dependents map[types.UID]map[storedRef]schema.GroupVersionKind
	// owners are the uids each indexed object names, to take it out of
	// dependents when it changes or goes.
	owners map[storedRef][]types.UID
}

func newOwnerIndex() *ownerIndex {
	return &ownerIndex{dependents: map[types.UID]map[storedRef]schema.GroupVersionKind{}, owners: map[storedRef][]types.UID{}}
}

// record sets the owner references of the object of kind gvk that ref
// names: refs, none when it has none or is gone.
func (x *ownerIndex) record(ref storedRef, gvk schema.GroupVersionKind, refs []metav1.OwnerReference) {
	if x == nil {
		return
	}
	for _, uid := range x.owners[ref] {
		delete(x.dependents[uid], ref)
		if len(x.dependents[uid]) == 0 {
			delete(x.dependents, uid)
		}
	}
	delete(x.owners, ref)
	for _, r := range refs {
		if x.dependents[r.UID] == nil {
			x.dependents[r.UID] = map[storedRef]schema.GroupVersionKind{}
		}
		x.dependents[r.UID][ref] = gvk
		x.owners[ref] = append(x.owners[ref], r.UID)
	}
}

// of returns the objects whose owner references name uid, by kind and
// namespace/name, in no order.
func (x *ownerIndex) of(uid types.UID) map[storedRef]schema.GroupVersionKind {
	if x == nil {
		return nil
	}
	return x.dependents[uid]
}
