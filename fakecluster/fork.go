package fakecluster

import (
	"fmt"
	"maps"
)

// Fork returns a cluster with c's objects, indexes, update checks, clock, ID
// source and resourceVersion counter, and no watchers: a copy of c to do work on
// apart from c, on another goroutine. Writes to either do not reach the
// other. The two share the stored objects, which neither changes in place.
func (c *Cluster) Fork() *Cluster {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := &Cluster{scheme: c.scheme, now: c.now, ids: c.ids, store: newStore(), rv: c.rv, updateChecks: cloneUpdateChecks(c.updateChecks)}
	for gk, byName := range c.store.indexers {
		f.store.indexers[gk] = maps.Clone(byName)
	}
	for gk, byName := range c.store.groups {
		f.store.groups[gk] = maps.Clone(byName)
	}
	for gk, keys := range c.store.labelKeys {
		f.store.labelKeys[gk] = maps.Clone(keys)
	}
	for _, k := range c.store.all() {
		obj, _ := c.store.get(k)
		f.store.put(k, obj)
	}
	return f
}

// Adopt stores objs as they are, resourceVersions and all, in place of the
// objects of the same kind and name, and raises the resourceVersion counter
// to rv if it is lower. It applies none of the API server's rules and
// sends no events: it takes over into c the results of work done on a Fork,
// which the caller has put in the order, and given the resourceVersions,
// that doing the work on c would have given them. c keeps objs; the caller
// must not change them afterwards.
func (c *Cluster) Adopt(objs []Object, rv uint64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, obj := range objs {
		gvk, err := c.kindOf(obj)
		if err != nil {
			return fmt.Errorf("adopt %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
		}
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		// Indexed when next listed: a dry run's take-over is mostly its end.
		c.store.putUnindexed(keyOf(gvk, obj), obj)
	}
	c.rv = max(c.rv, rv)
	return nil
}
