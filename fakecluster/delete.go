package fakecluster

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"
)

// Delete removes obj, or marks it for deletion while it has finalizers. See
// Writer. Only obj's kind, namespace and name count; obj is not changed.
//
// Marking sets deletionTimestamp (from the cluster clock) and
// deletionGracePeriodSeconds 0; deleting a marked object again changes
// nothing and is not an error. Removing an object deletes, in the same way,
// every dependent whose owner references all point to removed objects, and so
// on down the chain (background propagation). A missing object is a NotFound
// error.
func (c *Cluster) Delete(ctx context.Context, obj Object) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	gvk, err := c.kindOf(obj)
	if err != nil {
		return fmt.Errorf("delete %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
	}
	k := keyOf(gvk, obj)
	c.mu.Lock()
	err = c.deleteLocked(k)
	c.mu.Unlock()
	c.deliver()
	return err
}

func (c *Cluster) deleteLocked(k objKey) error {
	stored, ok := c.store.get(k)
	if !ok {
		return notFound(k.gk, k.name)
	}
	if removed := c.deleteObjectLocked(k, stored); removed {
		c.collectGarbageLocked(stored.GetUID())
	}
	return nil
}

// deleteObjectLocked marks or removes the stored object named k, without
// collecting its dependents. It reports whether the object was removed.
func (c *Cluster) deleteObjectLocked(k objKey, stored Object) bool {
	if len(stored.GetFinalizers()) == 0 {
		last := copyObject(stored)
		last.SetResourceVersion(c.nextRV())
		c.store.remove(k)
		c.emitLocked(Deleted, k.gk, stored, last)
		return true
	}
	if stored.GetDeletionTimestamp() != nil {
		return false
	}
	next := copyObject(stored)
	ts := c.timestamp()
	var grace int64
	next.SetDeletionTimestamp(&ts)
	next.SetDeletionGracePeriodSeconds(&grace)
	// As kube-apiserver marks an object for deletion (markAsDeleting in
	// k8s.io/apiserver's generic registry): the generation moves on, so a
	// controller sees a deletion as a change of what it last observed.
	if g := next.GetGeneration(); g > 0 {
		next.SetGeneration(g + 1)
	}
	next.SetResourceVersion(c.nextRV())
	c.store.put(k, next)
	c.emitLocked(Modified, k.gk, stored, next)
	return false
}

// collectGarbageLocked deletes the dependents of the removed object uid whose
// owners are all gone, then the dependents of those it removed, and so on.
// Dependents are visited in key order so that runs are reproducible.
func (c *Cluster) collectGarbageLocked(uid types.UID) {
	queue := []types.UID{uid}
	for len(queue) > 0 {
		owner := queue[0]
		queue = queue[1:]
		for _, k := range c.store.ownedBy(owner) {
			dep, ok := c.store.get(k)
			if !ok || c.hasOwnerLocked(dep) {
				continue
			}
			if c.deleteObjectLocked(k, dep) {
				queue = append(queue, dep.GetUID())
			}
		}
	}
}

// hasOwnerLocked reports whether any owner of obj is still stored. An owner
// marked for deletion still counts.
func (c *Cluster) hasOwnerLocked(obj Object) bool {
	for _, ref := range obj.GetOwnerReferences() {
		if _, ok := c.store.uids[ref.UID]; ok {
			return true
		}
	}
	return false
}

func sortedKeys(set *keySet) []objKey {
	keys := make([]objKey, 0, set.len())
	for e := range set.all() {
		keys = append(keys, e.key)
	}
	slices.SortFunc(keys, compareKeys)
	return keys
}
