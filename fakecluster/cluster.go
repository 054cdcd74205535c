package fakecluster

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lscli/lscli/internal/ids"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// DefaultNow is the instant the cluster clock shows when Options.Now is nil.
var DefaultNow = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Options configures a Cluster. The zero value is valid.
type Options struct {
	// Scheme maps Go types to kinds. Defaults to NewScheme().
	Scheme *runtime.Scheme
	// Now is the cluster clock, used for creationTimestamp and
	// deletionTimestamp. Defaults to a clock fixed at DefaultNow.
	Now func() time.Time
	// IDs derives generateName suffixes and uids from the seed and the
	// object's identity (kind, namespace, name or generateName, controller
	// owner). The zero value uses seed 0.
	IDs ids.Source
}

// Cluster is an in-memory API server: an object store with the metadata rules
// of kube-apiserver and the garbage collector. See the package documentation
// for what it simulates. A Cluster is safe for concurrent use.
type Cluster struct {
	scheme *runtime.Scheme
	now    func() time.Time

	mu  sync.Mutex
	ids ids.Source
	// visited counts the objects List looked at, for tests that check a
	// lookup does not grow with unrelated objects.
	visited  uint64
	store    *store
	rv       uint64
	watchers []WatchFunc
	// pending holds events not yet delivered to the watchers; delivering
	// is true while one goroutine delivers them. See deliver.
	pending    []queuedEvent
	delivering bool
	// updateChecks are the admission checks of updates, by kind (see
	// AddUpdateCheck).
	updateChecks map[schema.GroupKind][]UpdateCheck
}

var _ Client = (*Cluster)(nil)

// New returns an empty cluster.
func New(opts Options) *Cluster {
	c := &Cluster{scheme: opts.Scheme, now: opts.Now, ids: opts.IDs, store: newStore()}
	if c.scheme == nil {
		c.scheme = NewScheme()
	}
	if c.now == nil {
		c.now = func() time.Time { return DefaultNow }
	}
	return c
}

// Scheme returns the scheme that maps Go types to kinds.
func (c *Cluster) Scheme() *runtime.Scheme { return c.scheme }

// ResourceVersion returns the resourceVersion of the latest write, 0 for a
// cluster that has never been written. Comparing two readings tells whether
// anything changed in between.
func (c *Cluster) ResourceVersion() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rv
}

// Get copies the object named key into obj. See Reader.
func (c *Cluster) Get(ctx context.Context, key types.NamespacedName, obj Object) error {
	stored, err := c.GetShared(ctx, key, obj)
	if err != nil {
		return err
	}
	// Stored objects never change in place: the copy needs no lock.
	return copyObjectInto(obj, stored)
}

// GetUnsafe is Get without the deep copy, as controller-runtime's
// UnsafeDisableDeepCopy: obj shares its maps, slices and pointers with the
// stored object, which the cluster never changes in place, so the caller may
// read it but must not change anything reachable from it (assigning obj's own
// top-level fields is fine). It is for read-only checks on hot paths.
func (c *Cluster) GetUnsafe(ctx context.Context, key types.NamespacedName, obj Object) error {
	stored, err := c.GetShared(ctx, key, obj)
	if err != nil {
		return err
	}
	return copyInto(obj, stored)
}

// GetShared returns the stored object named key, of the type of like (whose
// content is not read), itself: no copy at all. The cluster never changes a
// stored object in place, so the caller may keep and read it, but must not
// change anything of it, not even its top-level fields. It is for read-only
// checks on the hottest paths, such as whether a wake-up has anything to do.
func (c *Cluster) GetShared(ctx context.Context, key types.NamespacedName, like Object) (Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	gvk, err := c.kindOf(like)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	k := newKey(gvk.GroupKind(), key.Namespace, key.Name)
	c.mu.Lock()
	stored, ok := c.store.get(k)
	c.mu.Unlock()
	if !ok {
		return nil, notFound(k.gk, key.Name)
	}
	return stored, nil
}

// List fills list with copies of the matching objects. See Reader.
func (c *Cluster) List(ctx context.Context, list ObjectList, opts ListOptions) error {
	return c.list(ctx, list, opts, false)
}

// ListUnsafe is List without the deep copies, as GetUnsafe is Get: each item
// of the Landscaper kinds the controllers read most is a shallow copy of a
// stored object and shares its maps, slices and pointers with it (other
// kinds are copied as List copies them), so the caller may read the items
// but must not change anything reachable from them (assigning an item's own
// top-level fields is fine). It is for read-only looks on hot paths.
func (c *Cluster) ListUnsafe(ctx context.Context, list ObjectList, opts ListOptions) error {
	return c.list(ctx, list, opts, true)
}

// list is List, or with shallow ListUnsafe.
func (c *Cluster) list(ctx context.Context, list ObjectList, opts ListOptions, shallow bool) error {
	gvk, found, rv, err := c.find(ctx, list, opts)
	if err != nil {
		return err
	}
	// The stored objects are never changed in place, so they are copied
	// outside the lock.
	if !setListItems(list, found, shallow) {
		items := make([]runtime.Object, len(found))
		for i, obj := range found { // kinds read rarely: copies, also for ListUnsafe
			items[i] = copyObject(obj)
		}
		if err := meta.SetList(list, items); err != nil {
			return fmt.Errorf("list %s: %w", gvk.Kind, err)
		}
	}
	list.SetResourceVersion(formatRV(rv))
	return nil
}

// Select returns the objects List would put into list, in the same order,
// as pointers of type T: copies, or with shared true the stored objects
// themselves, not even copied shallowly (what controller-runtime's
// UnsafeDisableDeepCopy gives, and cheaper). The cluster never changes a
// stored object in place, so shared ones stay as they are; the caller must
// not change anything reachable from them. list is only read for its kind.
// Shared is for read-only looks on hot paths.
func Select[T Object](ctx context.Context, c *Cluster, list ObjectList, opts ListOptions, shared bool) ([]T, error) {
	_, found, _, err := c.find(ctx, list, opts)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(found))
	for i, obj := range found {
		if !shared {
			obj = copyObject(obj)
		}
		t, ok := obj.(T)
		if !ok {
			return nil, fmt.Errorf("list %T: found a %T, want a %T", list, obj, out[i])
		}
		out[i] = t
	}
	return out, nil
}

// find returns the kind of list's items, the stored objects matching opts
// in List's order, and the resourceVersion they were found at.
func (c *Cluster) find(ctx context.Context, list ObjectList, opts ListOptions) (schema.GroupVersionKind, []Object, uint64, error) {
	if err := ctx.Err(); err != nil {
		return schema.GroupVersionKind{}, nil, 0, err
	}
	gvk, err := listItemGVK(c.scheme, list)
	if err != nil {
		return gvk, nil, 0, fmt.Errorf("list: %w", err)
	}
	if clusterScoped[gvk.GroupKind()] {
		opts.Namespace = ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := opts.Field; f != nil && c.store.indexers[gvk.GroupKind()][f.Index] == nil {
		return gvk, nil, 0, fmt.Errorf("list %s: no index %q registered (see AddIndex)", gvk.Kind, f.Index)
	}
	return gvk, c.selectLocked(gvk.GroupKind(), opts), c.rv, nil
}

// selectLocked returns the stored objects of kind gk matching opts, sorted.
func (c *Cluster) selectLocked(gk schema.GroupKind, opts ListOptions) []Object {
	cands := c.store.candidates(gk, opts)
	c.visited += uint64(len(cands))
	var found []Object // nil when nothing matches, as before
	for _, e := range cands {
		if c.store.matches(gk, e, opts) {
			if found == nil {
				found = make([]Object, 0, len(cands)) // most candidates match: one allocation
			}
			found = append(found, e.obj)
		}
	}
	sortByName(found)
	return found
}

// sortByName sorts objs by namespace and name, reading each object's
// namespace and name once rather than at every comparison (a parent lists
// its children at every wake-up; with many children the interface calls
// were most of the sort).
func sortByName(objs []Object) {
	if len(objs) < 2 {
		return
	}
	type named struct {
		namespace, name string
		obj             Object
	}
	var small [16]named // most lists are an object's few children
	ns := small[:0]
	if len(objs) > len(small) {
		ns = make([]named, 0, len(objs))
	}
	for _, o := range objs {
		ns = append(ns, named{o.GetNamespace(), o.GetName(), o})
	}
	slices.SortFunc(ns, func(a, b named) int {
		if c := strings.Compare(a.namespace, b.namespace); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	for i, n := range ns {
		objs[i] = n.obj
	}
}

// Watch registers fn to receive every later change. See WatchFunc and the
// package documentation for the delivery order.
func (c *Cluster) Watch(fn WatchFunc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.watchers = append(c.watchers, fn)
}

// kindOf returns the kind of obj and checks that obj can be stored.
func (c *Cluster) kindOf(obj Object) (schema.GroupVersionKind, error) {
	gvk, err := gvkOf(c.scheme, obj)
	if err != nil {
		return gvk, err
	}
	return gvk, checkStorable(obj)
}

// keyOf returns the key of obj, whose kind is gvk.
func keyOf(gvk schema.GroupVersionKind, obj Object) objKey {
	return newKey(gvk.GroupKind(), obj.GetNamespace(), obj.GetName())
}

// newKey returns the key of an object. Cluster-scoped kinds ignore namespace,
// as the API server does.
func newKey(gk schema.GroupKind, namespace, name string) objKey {
	if clusterScoped[gk] {
		namespace = ""
	}
	return objKey{gk: gk, namespace: namespace, name: name}
}

// Visited returns how many stored objects List calls have looked at so far,
// matching or not. Tests use it to check that a lookup's cost does not grow
// with unrelated parts of a landscape.
func (c *Cluster) Visited() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.visited
}
