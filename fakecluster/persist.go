package fakecluster

import (
	"errors"
	"fmt"
	"strconv"
)

// Objects returns copies of every stored object, sorted by kind, namespace
// and name (kinds of the same name by group). Together with Restore it lets a
// caller save the cluster and load it again later.
func (c *Cluster) Objects() []Object { return c.objects(true) }

// SharedObjects is Objects without the copies: the stored objects
// themselves, which the cluster never changes in place. It is for a caller
// that is done with the cluster, or only reads them; nobody may change them.
func (c *Cluster) SharedObjects() []Object { return c.objects(false) }

// objects returns the stored objects in Objects' order, copies of them
// when copied is true.
func (c *Cluster) objects(copied bool) []Object {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := c.store.all()
	out := make([]Object, len(keys))
	for i, k := range keys {
		obj, _ := c.store.get(k)
		if copied {
			obj = copyObject(obj)
		}
		out[i] = obj
	}
	return out
}

// Restore loads objs, as returned by Objects, into an empty cluster. Objects
// are stored as they are: uid, resourceVersion, generation and timestamps are
// kept; only a missing uid or resourceVersion is filled in, as Create would.
// The resourceVersion counter goes on from the highest one loaded (or
// from its own value, if that is higher). Restore
// sends no events. It fails, leaving the cluster empty, when the cluster is
// not empty, or when an object has an unregistered type, no name, a missing
// namespace, a resourceVersion that is not a number, or the same kind and name
// or the same uid as another object.
func (c *Cluster) Restore(objs []Object) error { return c.restore(objs, false) }

// RestoreOwned is Restore of objects nobody else holds, such as those just
// decoded from a state file: c keeps objs themselves instead of copies of
// them, and may change them as Restore changes its copies, so the caller
// must not use them afterwards.
func (c *Cluster) RestoreOwned(objs []Object) error { return c.restore(objs, true) }

// restore is Restore, or RestoreOwned when owned is true.
func (c *Cluster) restore(objs []Object, owned bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.store.objects) != 0 {
		return errors.New("restore: cluster is not empty")
	}
	s := newStore()
	var maxRV uint64
	var unversioned []Object
	for i, obj := range objs {
		next, rv, err := c.restoreOne(s, obj, owned)
		if err != nil {
			return fmt.Errorf("restore object %d: %w", i, err)
		}
		maxRV = max(maxRV, rv)
		if rv == 0 {
			unversioned = append(unversioned, next)
		}
	}
	c.store, c.rv = s, max(c.rv, maxRV)
	for _, obj := range unversioned {
		obj.SetResourceVersion(c.nextRV())
	}
	return nil
}

// restoreOne checks obj, stores a copy of it in s (obj itself when owned)
// and returns what it stored and its resourceVersion (0 when it has none).
func (c *Cluster) restoreOne(s *store, obj Object, owned bool) (Object, uint64, error) {
	gvk, err := c.kindOf(obj)
	if err != nil {
		return nil, 0, err
	}
	next := obj
	if !owned {
		next = copyObject(obj)
	}
	next.GetObjectKind().SetGroupVersionKind(gvk)
	k := keyOf(gvk, next)
	desc := func() string { return fmt.Sprintf("%s %s/%s", gvk.Kind, k.namespace, k.name) }
	if k.name == "" || (k.namespace == "" && !clusterScoped[k.gk]) {
		return nil, 0, fmt.Errorf("%s: name and namespace are required", desc())
	}
	next.SetNamespace(k.namespace)
	if _, dup := s.get(k); dup {
		return nil, 0, fmt.Errorf("%s: duplicate object", desc())
	}
	rv, err := parseRV(next.GetResourceVersion())
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", desc(), err)
	}
	if next.GetUID() == "" {
		next.SetUID(c.newUID(k.gk, next, 0))
	}
	if other, dup := s.uids[next.GetUID()]; dup {
		return nil, 0, fmt.Errorf("%s: uid %s is also the uid of %s %s/%s",
			desc(), next.GetUID(), other.gk.Kind, other.namespace, other.name)
	}
	// Indexed when an index is next read, on all cores (indexPending).
	s.putUnindexed(k, next)
	return next, rv, nil
}

func parseRV(rv string) (uint64, error) {
	if rv == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("resourceVersion %q is not a decimal number", rv)
	}
	return n, nil
}
