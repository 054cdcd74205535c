package fakecluster

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/lscli/lscli/internal/parallel"
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
	c.store.watch.checkAll(c.store)
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
//
// What each object needs apart from the others (its kind, key and
// resourceVersion, and the copy) is worked out on all cores first. The
// object map is then filled in order, which finds duplicates and makes
// the missing uids, while the indexes are built beside it (indexApart;
// TestRestoreIsPut compares the result with storing the objects one by
// one). A failure reports the first object that fails, with the error
// storing them one by one would give.
func (c *Cluster) restore(objs []Object, owned bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.store.objects) != 0 {
		return errors.New("restore: cluster is not empty")
	}
	prepared := make([]restored, len(objs))
	_ = parallel.ForChunks(len(objs), minParallel, func(_, lo, hi int) error {
		for i := lo; i < hi; i++ {
			prepared[i] = c.prepareRestore(objs[i], owned)
		}
		return nil
	})
	s := newStore()
	var err error
	s.indexApart(len(prepared), func(i int) (*entry, bool) {
		r := prepared[i]
		return r.entry, r.err == nil
	}, func() { err = c.fillRestored(s, prepared) })
	if err != nil {
		return err
	}
	var maxRV uint64
	for _, r := range prepared {
		maxRV = max(maxRV, r.rv)
	}
	c.store, c.rv = s, max(c.rv, maxRV)
	for _, r := range prepared {
		if r.rv == 0 {
			r.obj.SetResourceVersion(c.nextRV())
			s.watch.keep(r.key, r.obj)
		}
	}
	return nil
}

// restored is what restore works out for one object apart from the
// others.
type restored struct {
	obj Object // what is stored: the object, or a copy of it
	key objKey
	// entry is the store entry that holds obj: the indexes are built from
	// it while fillRestored puts it into the object map.
	entry *entry
	rv    uint64 // its resourceVersion, 0 when it has none
	// err is why the object cannot be stored at all (an unknown kind, no
	// name); rvErr is a resourceVersion that is not a number, found only
	// after the duplicate check.
	err, rvErr error
}

// desc names the object in restore's errors.
func (r restored) desc() string {
	return fmt.Sprintf("%s %s/%s", r.key.gk.Kind, r.key.namespace, r.key.name)
}

// prepareRestore checks obj on its own and returns what restore stores.
func (c *Cluster) prepareRestore(obj Object, owned bool) restored {
	gvk, err := c.kindOf(obj)
	if err != nil {
		return restored{err: err}
	}
	next := obj
	if !owned {
		next = copyObject(obj)
	}
	next.GetObjectKind().SetGroupVersionKind(gvk)
	r := restored{obj: next, key: keyOf(gvk, next)}
	r.entry = &entry{key: r.key, obj: next}
	if r.key.name == "" || (r.key.namespace == "" && !clusterScoped[r.key.gk]) {
		r.err = fmt.Errorf("%s: name and namespace are required", r.desc())
		return r
	}
	next.SetNamespace(r.key.namespace)
	if r.rv, err = parseRV(next.GetResourceVersion()); err != nil {
		r.rvErr = fmt.Errorf("%s: %w", r.desc(), err)
	}
	return r
}

// fillRestored puts the prepared objects into s's object map in order,
// with the checks that need the objects before them (duplicate keys and
// uids) and a uid for each object without one. It builds no index but the
// uids'.
func (c *Cluster) fillRestored(s *store, prepared []restored) error {
	for i, r := range prepared {
		if err := c.fillOne(s, r); err != nil {
			return &RestoreError{Index: i, Err: err}
		}
	}
	return nil
}

// RestoreError is why Restore refused the object at Index of the objects
// it was given: a duplicate, a uid or resourceVersion it cannot take, no
// name or namespace, an unregistered type.
type RestoreError struct {
	Index int
	Err   error
}

// Error names the object by its index, and why.
func (e *RestoreError) Error() string { return fmt.Sprintf("restore object %d: %v", e.Index, e.Err) }

// Unwrap returns the reason.
func (e *RestoreError) Unwrap() error { return e.Err }

// fillOne stores one prepared object in s's object map and uid index, or
// says why it cannot: its own error first, then a duplicate key, a bad
// resourceVersion and a duplicate uid, the order storing it alone checks.
func (c *Cluster) fillOne(s *store, r restored) error {
	if r.err != nil {
		return r.err
	}
	if _, dup := s.get(r.key); dup {
		return fmt.Errorf("%s: duplicate object", r.desc())
	}
	if r.rvErr != nil {
		return r.rvErr
	}
	obj := r.obj
	if obj.GetUID() == "" {
		obj.SetUID(c.newUID(r.key.gk, obj, 0))
	}
	if other, dup := s.uids[obj.GetUID()]; dup {
		return fmt.Errorf("%s: uid %s is also the uid of %s %s/%s",
			r.desc(), obj.GetUID(), other.gk.Kind, other.namespace, other.name)
	}
	s.setEntry(r.entry)
	s.uids[obj.GetUID()] = r.key
	return nil
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
