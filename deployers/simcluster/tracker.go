package simcluster

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/internal/semantic"
)

// defaultManager is the field manager of writes that name none, as a real
// API server derives one from the client's user agent.
const defaultManager = "lscli"

// tracker is the object store under the fake client. It is client-go's
// object tracker with a field manager for server-side apply, as the fake
// client builds by default, plus what a real API server maintains: uid,
// creationTimestamp, generation and deletionTimestamp, and managedFields
// times, all from the injected clock and random source (the fake client
// would use the wall clock).
type tracker struct {
	testing.ObjectTracker
	scheme    *runtime.Scheme
	converter managedfields.TypeConverter
	now       func() time.Time
	ids       ids.Source
	// cluster is the key of the cluster, part of every derived identifier.
	cluster  string
	managers map[schema.GroupVersionKind]*managedfields.FieldManager
	// kinds are the kinds ever stored, for listing every object.
	kinds map[schema.GroupVersionResource]schema.GroupVersionKind
	// hasStatus reports whether a custom resource kind has the status
	// subresource (its CRD declares it). Nil: none has.
	hasStatus func(schema.GroupVersionKind) bool
	// crSchema is the schema of a custom resource kind (its CRD's); nil
	// when it has none. Nil: no kind has one.
	crSchema func(schema.GroupVersionKind) *crSchema
	// listSelector, while set, keeps what List returns to the objects it
	// selects (see selecting).
	listSelector labels.Selector
	// statusWrite is true during a write of the status subresource (see
	// writingStatus).
	statusWrite bool
	// keepStatus, while true, makes a create keep the status its object
	// has (objects seeded as another controller leaves them, see put).
	keepStatus bool
	// changes counts the writes that changed what is stored, with those of
	// the other clusters of its set (see Clusters.Changes); nil: not counted.
	changes *atomic.Uint64
	// index holds the labels of every stored object, so that a List by
	// labels copies only the objects it selects; nil for a store whose
	// objects change beside the tracker (the simulation's own cluster).
	index labelIndex
	// owners indexes the owner references of every stored object, kept
	// with index (nil with it).
	owners *ownerIndex
	// tokenSecrets names the Secrets of type
	// kubernetes.io/service-account-token by namespace, kept with index
	// (nil with it), so that the token controller (tokens.go) looks at
	// those alone, not at every Secret (helm's release records among them).
	tokenSecrets map[string]map[string]bool
	// services holds what the stored Services hold, kept with index (see
	// allocated).
	services serviceIndex
	// deleted, when set, is told of every object the store deleted, of
	// kind gvk with uid, whichever path deleted it (the garbage
	// collector's hook, gc.go). It must not write to the store.
	deleted func(ref objectRef, uid types.UID)
	// validating, when set, refuses a write as kube-apiserver's
	// validating admission plugins would: PodSecurity's check of Namespace
	// labels (podsecurity.go) and ValidatingAdmissionPolicies
	// (admissionpolicy.go); old is nil on create.
	validating func(old, obj runtime.Object, statusWrite bool) error
	// routes, when set, tells the resources of custom resource versions
	// that are kept in their CRD's storage version (conversion.go).
	routes func(schema.GroupVersionResource) (conversionRoute, bool)
}

// labelIndex maps resource, namespace and name to an object's labels.
type labelIndex map[schema.GroupVersionResource]map[string]map[string]map[string]string

// reindex records the labels of the object stored under gvr, ns and name
// (none: it is gone), after a write the tracker passed on.
func (t *tracker) reindex(gvr schema.GroupVersionResource, ns, name string) {
	if t.index == nil {
		return
	}
	byNS := t.index[gvr]
	obj, err := t.ObjectTracker.Get(gvr, ns, name)
	if gvr == servicesResource {
		svc, _ := obj.(*corev1.Service)
		t.services.record(ns, name, svc)
	}
	if err != nil {
		delete(byNS[ns], name)
		t.owners.record(storedRef{gvr, ns, name}, schema.GroupVersionKind{}, nil)
		t.recordTokenSecret(gvr, ns, name, nil)
		return
	}
	acc, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	t.recordOwners(storedRef{gvr, ns, name}, obj, acc.GetOwnerReferences())
	t.recordTokenSecret(gvr, ns, name, obj)
	if byNS == nil {
		byNS = map[string]map[string]map[string]string{}
		t.index[gvr] = byNS
	}
	if byNS[ns] == nil {
		byNS[ns] = map[string]map[string]string{}
	}
	byNS[ns][name] = acc.GetLabels()
}

// recordTokenSecret keeps in tokenSecrets whether obj, stored under gvr as
// ns/name (nil: gone), is a service-account token Secret.
func (t *tracker) recordTokenSecret(gvr schema.GroupVersionResource, ns, name string, obj runtime.Object) {
	if t.tokenSecrets == nil || gvr != secretsResource {
		return
	}
	if sec, ok := obj.(*corev1.Secret); ok && sec.Type == corev1.SecretTypeServiceAccountToken {
		if t.tokenSecrets[ns] == nil {
			t.tokenSecrets[ns] = map[string]bool{}
		}
		t.tokenSecrets[ns][name] = true
		return
	}
	delete(t.tokenSecrets[ns], name)
}

// recordOwners keeps the owner references of obj, stored as ref, in the
// owner index.
func (t *tracker) recordOwners(ref storedRef, obj runtime.Object, refs []metav1.OwnerReference) {
	var gvk schema.GroupVersionKind
	if len(refs) > 0 {
		var err error
		if gvk, err = apiutil.GVKForObject(obj, t.scheme); err != nil {
			refs = nil // a kind the scheme does not know cannot be listed either
		}
	}
	t.owners.record(ref, gvk, refs)
}

// reindexAdded records what Add stored: obj (or each item of a list) under
// the resource of each of its kinds, as client-go's tracker stores it.
func (t *tracker) reindexAdded(obj runtime.Object) error {
	if t.index == nil {
		return nil
	}
	if meta.IsListType(obj) {
		items, err := meta.ExtractList(obj)
		if err != nil {
			return err
		}
		for _, item := range items {
			if err := t.reindexAdded(item); err != nil {
				return err
			}
		}
		return nil
	}
	acc, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	gvks, _, err := t.scheme.ObjectKinds(obj)
	if err != nil {
		return err
	}
	for _, gvk := range gvks {
		gvr, _ := meta.UnsafeGuessKindToResource(gvk)
		if gvr.Version == runtime.APIVersionInternal {
			gvr.Version = ""
		}
		t.reindex(gvr, acc.GetNamespace(), acc.GetName())
	}
	return nil
}

// selected lists, by the index, the objects of gvr in ns (all namespaces
// when empty) that sel selects, sorted by namespace and name as
// client-go's tracker lists them, into list, a List of no objects.
func (t *tracker) selected(list runtime.Object, gvr schema.GroupVersionResource, ns string, sel labels.Selector) (runtime.Object, error) {
	type key struct{ ns, name string }
	var keys []key
	for objNS, byName := range t.index[gvr] {
		if ns != "" && objNS != ns {
			continue
		}
		for name, lbls := range byName {
			if sel.Matches(labels.Set(lbls)) {
				keys = append(keys, key{objNS, name})
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].ns != keys[j].ns {
			return keys[i].ns < keys[j].ns
		}
		return keys[i].name < keys[j].name
	})
	items := make([]runtime.Object, 0, len(keys))
	for _, k := range keys {
		obj, err := t.ObjectTracker.Get(gvr, k.ns, k.name)
		if err != nil {
			return nil, err
		}
		items = append(items, obj)
	}
	if err := meta.SetList(list, items); err != nil {
		return nil, err
	}
	return list, nil
}

// noNamespace is a namespace no object is in: a List of it is a List of
// the kind with the tracker's resourceVersion and no objects.
const noNamespace = "\x00"

// generationRule returns the generation rule of obj's kind, if it has one.
func (t *tracker) generationRule(obj runtime.Object) (generationRule, bool) {
	gvk, err := apiutil.GVKForObject(obj, t.scheme)
	if err != nil {
		return generationRule{}, false
	}
	return generationRuleFor(gvk, t.hasStatus)
}

// newTracker returns a tracker over store.
func newTracker(scheme *runtime.Scheme, converter managedfields.TypeConverter, now func() time.Time, ids ids.Source, cluster string,
	store testing.ObjectTracker) *tracker {
	return &tracker{
		ObjectTracker: store,
		scheme:        scheme, converter: converter, now: now, ids: ids, cluster: cluster,
		managers: map[schema.GroupVersionKind]*managedfields.FieldManager{},
		kinds:    map[schema.GroupVersionResource]schema.GroupVersionKind{},
	}
}

var _ testing.ObjectTracker = (*tracker)(nil)

// selecting makes List return only the objects sel selects until the
// returned func is called. The fake client lists a whole namespace, converts
// every object to the caller's type through JSON, and only then filters by
// labels: helm's storage, which finds a release's records by label, would
// convert every release record of the namespace at each step of every
// release. Filtering first gives the same objects in the same order, as
// labels do not change in the conversion; the fake client filters again.
func (t *tracker) selecting(sel labels.Selector) func() {
	if sel == nil || sel.Empty() {
		return func() {}
	}
	t.listSelector = sel
	return func() { t.listSelector = nil }
}

// writingStatus marks the writes until the returned func is called as
// writes of the status subresource, which the fake client passes on as
// updates: a custom resource's are validated as its status strategy
// validates them.
func (t *tracker) writingStatus() func() {
	t.statusWrite = true
	return func() { t.statusWrite = false }
}

// List lists the objects of gvr in ns (all namespaces when empty), sorted
// by namespace and name; only those listSelector selects while it is set.
func (t *tracker) List(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, opts ...metav1.ListOptions) (runtime.Object, error) {
	r, routed := t.route(gvr)
	if !routed {
		return t.list(gvr, gvk, ns, opts...)
	}
	list, err := t.list(r.storedResource(), r.to, ns, opts...)
	if err != nil {
		return nil, err
	}
	return t.inVersion(r, list, r.from.GroupVersion()) // conversion.go
}

// list is List of the resource the objects are kept under.
func (t *tracker) list(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, opts ...metav1.ListOptions) (runtime.Object, error) {
	if t.listSelector != nil && t.index != nil {
		empty, err := t.ObjectTracker.List(gvr, gvk, noNamespace, opts...)
		if err != nil {
			return nil, err
		}
		return t.selected(empty, gvr, ns, t.listSelector)
	}
	list, err := t.ObjectTracker.List(gvr, gvk, ns, opts...)
	if err != nil || t.listSelector == nil {
		return list, err
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	kept := items[:0]
	for _, obj := range items {
		acc, err := meta.Accessor(obj)
		if err != nil {
			return nil, err
		}
		if t.listSelector.Matches(labels.Set(acc.GetLabels())) {
			kept = append(kept, obj)
		}
	}
	if err := meta.SetList(list, kept); err != nil {
		return nil, err
	}
	return list, nil
}

// Add stores obj as it is (restoring saved objects).
func (t *tracker) Add(obj runtime.Object) error {
	gvk, err := apiutil.GVKForObject(obj, t.scheme)
	if err != nil {
		return err
	}
	t.remember(gvk)
	if err := t.ObjectTracker.Add(obj); err != nil {
		return err
	}
	return t.reindexAdded(obj)
}

// Delete removes the object named name.
func (t *tracker) Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error {
	gvr = t.storedGVR(gvr) // conversion.go
	var gone runtime.Object
	if t.deleted != nil {
		gone, _ = t.ObjectTracker.Get(gvr, ns, name)
	}
	err := t.ObjectTracker.Delete(gvr, ns, name, opts...)
	t.reindex(gvr, ns, name)
	var dryRun []string
	if len(opts) > 0 {
		dryRun = opts[0].DryRun
	}
	t.count(err, dryRun)
	if err == nil && gone != nil && !slices.Contains(dryRun, metav1.DryRunAll) {
		t.tellDeleted(gone, ns, name)
	}
	return err
}

// tellDeleted tells deleted of obj, stored as ns/name, which the store
// deleted.
func (t *tracker) tellDeleted(obj runtime.Object, ns, name string) {
	acc, err := meta.Accessor(obj)
	if err != nil || acc.GetUID() == "" {
		return
	}
	gvk, err := apiutil.GVKForObject(obj, t.scheme)
	if err != nil {
		return // a kind the scheme does not know has no dependents indexed
	}
	t.deleted(objectRef{gvk: gvk, namespace: ns, name: name}, acc.GetUID())
}

// count counts a write that stored a change: err is nil and it was no dry
// run.
func (t *tracker) count(err error, dryRun []string) {
	if t.changes != nil && err == nil && !slices.Contains(dryRun, metav1.DryRunAll) {
		t.changes.Add(1)
	}
}

// Create stores a new object with managedFields, uid, creationTimestamp and
// generation 1.
func (t *tracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	var o metav1.CreateOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	gvk, mgr, err := t.managerFor(obj)
	if err != nil {
		return err
	}
	live, err := t.scheme.New(gvk)
	if err != nil {
		return err
	}
	live.GetObjectKind().SetGroupVersionKind(gvk)
	if !t.keepStatus && t.hasStatusSubresource(gvk) {
		clearStatus(obj)
	}
	beforeManager(gvk, obj)
	t.coerce(gvk, obj)
	out, err := mgr.Update(live, obj, managerName(o.FieldManager))
	if err != nil {
		return err
	}
	if err := t.stamp(nil, out); err != nil {
		return err
	}
	if gvr, gvk, out, err = t.toStorage(gvr, gvk, out); err != nil { // conversion.go
		return err
	}
	if err := t.checkStoredSize(out, storageKey(gvr, out), o.DryRun); err != nil { // objsize.go
		return err
	}
	t.remember(gvk)
	err = t.ObjectTracker.Create(gvr, out, ns, o)
	t.reindexWritten(gvr, out, ns)
	t.count(err, o.DryRun)
	return err
}

// reindexWritten reindexes obj, just written under gvr into ns.
func (t *tracker) reindexWritten(gvr schema.GroupVersionResource, obj runtime.Object, ns string) {
	if t.index == nil {
		return
	}
	if acc, err := meta.Accessor(obj); err == nil {
		if ns == "" {
			ns = acc.GetNamespace()
		}
		t.reindex(gvr, ns, acc.GetName())
	}
}

// Update replaces an object, maintaining managedFields and metadata.
func (t *tracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	var o metav1.UpdateOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	out, old, err := t.merged(gvr, obj, ns, o.FieldManager)
	if err != nil || unchanged(old, out) {
		return err
	}
	if gvr, _, out, err = t.toStorage(gvr, out.GetObjectKind().GroupVersionKind(), out); err != nil { // conversion.go
		return err
	}
	if err := t.checkStoredSize(out, storageKey(gvr, out), o.DryRun); err != nil { // objsize.go
		return err
	}
	err = t.ObjectTracker.Update(gvr, out, ns, o)
	t.reindexWritten(gvr, out, ns)
	t.count(err, o.DryRun)
	return err
}

// Patch stores the result of a (non-apply) patch.
func (t *tracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	var o metav1.PatchOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	out, old, err := t.merged(gvr, obj, ns, o.FieldManager)
	if err != nil || unchanged(old, out) {
		return err
	}
	if gvr, _, out, err = t.toStorage(gvr, out.GetObjectKind().GroupVersionKind(), out); err != nil { // conversion.go
		return err
	}
	if err := t.checkStoredSize(out, storageKey(gvr, out), o.DryRun); err != nil { // objsize.go
		return err
	}
	err = t.ObjectTracker.Patch(gvr, out, ns, o)
	t.reindexWritten(gvr, out, ns)
	t.count(err, o.DryRun)
	return err
}

// merged runs the field manager for an update of the stored object, old,
// to obj and stamps the metadata.
func (t *tracker) merged(gvr schema.GroupVersionResource, obj runtime.Object, ns, manager string) (out, old runtime.Object, err error) {
	gvk, mgr, err := t.managerFor(obj)
	if err != nil {
		return nil, nil, err
	}
	beforeManager(gvk, obj)
	t.coerce(gvk, obj)
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, nil, err
	}
	if old, err = t.Get(gvr, ns, m.GetName()); err != nil {
		return nil, nil, err
	}
	if !t.statusWrite && t.hasStatus != nil && t.hasStatus(gvk) {
		keepStoredStatus(old, obj) // crstatus.go: custom resources
	}
	if out, err = mgr.Update(old, obj, managerName(manager)); err != nil {
		return nil, nil, err
	}
	return out, old, t.stamp(old, out)
}

// unchanged reports whether out, the result of a write, is the stored
// object old but for its resourceVersion: a real API server does not store
// such a write (the object keeps its resourceVersion, and no watcher hears
// of it).
func unchanged(old, out runtime.Object) bool {
	o, err1 := meta.Accessor(old)
	n, err2 := meta.Accessor(out)
	if err1 != nil || err2 != nil {
		return false
	}
	rv := n.GetResourceVersion()
	n.SetResourceVersion(o.GetResourceVersion())
	same := semantic.DeepEqual(old, out)
	n.SetResourceVersion(rv)
	return same
}

// Apply is server-side apply: it creates the object or merges the applied
// configuration into it.
func (t *tracker) Apply(gvr schema.GroupVersionResource, ac runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	var o metav1.PatchOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	gvk, mgr, err := t.managerFor(ac)
	if err != nil {
		return err
	}
	dropStatusOfStatusless(gvk, ac)
	m, err := meta.Accessor(ac)
	if err != nil {
		return err
	}
	old, err := t.Get(gvr, ns, m.GetName())
	exists := err == nil
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if exists && !t.statusWrite && t.hasStatusSubresource(gvk) {
		// The fake client copied the stored status into the applied
		// configuration; kube-apiserver ignores the status an apply of the
		// main resource names, and its manager owns none of it.
		if ac, err = withoutStatus(ac); err != nil {
			return err
		}
	}
	live := old
	if !exists {
		if live, err = t.scheme.New(gvk); err != nil {
			return err
		}
		live.GetObjectKind().SetGroupVersionKind(gvk)
		old = nil
		// A create drops the status, as Create does; controller-runtime's
		// fake client hands a custom resource over with "status": null,
		// which kube-apiserver would not store.
		if !t.keepStatus && t.hasStatusSubresource(gvk) {
			clearStatus(ac)
		}
	}
	out, err := mgr.Apply(live, ac, managerName(o.FieldManager), o.Force != nil && *o.Force)
	if err != nil {
		return err
	}
	t.coerce(gvk, out)
	if err := t.stamp(old, out); err != nil {
		return err
	}
	if exists && unchanged(old, out) {
		return nil
	}
	if gvr, gvk, out, err = t.toStorage(gvr, gvk, out); err != nil { // conversion.go
		return err
	}
	if err := t.checkStoredSize(out, storageKey(gvr, out), o.DryRun); err != nil { // objsize.go
		return err
	}
	t.remember(gvk)
	if !exists {
		err = t.ObjectTracker.Create(gvr, out, ns, metav1.CreateOptions{DryRun: o.DryRun, FieldManager: o.FieldManager})
	} else {
		err = t.ObjectTracker.Update(gvr, out, ns, metav1.UpdateOptions{DryRun: o.DryRun, FieldManager: o.FieldManager})
	}
	t.reindexWritten(gvr, out, ns)
	t.count(err, o.DryRun)
	return err
}

// withoutStatus is obj without its status: unstructured, as a typed
// object's zero status still has the fields that are not omitted when
// empty.
func withoutStatus(obj runtime.Object) (runtime.Object, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return nil, err
		}
		u = &unstructured.Unstructured{Object: m}
		u.SetGroupVersionKind(obj.GetObjectKind().GroupVersionKind())
	}
	delete(u.Object, "status")
	return u, nil
}

// managerFor returns obj's kind and the field manager for it.
func (t *tracker) managerFor(obj runtime.Object) (schema.GroupVersionKind, *managedfields.FieldManager, error) {
	gvk, err := apiutil.GVKForObject(obj, t.scheme)
	if err != nil {
		return gvk, nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	if mgr, ok := t.managers[gvk]; ok {
		return gvk, mgr, nil
	}
	mgr, err := managedfields.NewDefaultFieldManager(t.converter, t.scheme, nopDefaulter{}, t.scheme,
		gvk, gvk.GroupVersion(), "", nil)
	if err != nil {
		return gvk, nil, fmt.Errorf("field manager for %s: %w", gvk, err)
	}
	t.managers[gvk] = mgr
	return gvk, mgr, nil
}

func (t *tracker) remember(gvk schema.GroupVersionKind) {
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	t.kinds[gvr] = gvk
}

// forget drops a kind whose CRD is gone, with its field manager.
func (t *tracker) forget(gvk schema.GroupVersionKind) {
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	delete(t.kinds, gvr)
	delete(t.managers, gvk)
}

// all returns every stored object, sorted by apiVersion, kind, namespace
// and name.
func (t *tracker) all() ([]runtime.Object, error) {
	var out []runtime.Object
	for gvr, gvk := range t.kinds {
		list, err := t.ObjectTracker.List(gvr, gvk, "")
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", gvk.Kind, err)
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			it.GetObjectKind().SetGroupVersionKind(gvk)
			out = append(out, it)
		}
	}
	sort.Slice(out, func(i, j int) bool { return sortKey(out[i]) < sortKey(out[j]) })
	return out, nil
}

// sortKey orders objects by apiVersion, kind, namespace and name.
func sortKey(obj runtime.Object) string {
	gvk := obj.GetObjectKind().GroupVersionKind()
	m, _ := meta.Accessor(obj)
	return gvk.GroupVersion().String() + "\x00" + gvk.Kind + "\x00" + m.GetNamespace() + "\x00" + m.GetName()
}

func managerName(m string) string {
	if m == "" {
		return defaultManager
	}
	return m
}

// nopDefaulter defaults nothing: stamp defaults what an apply merged (admit).
type nopDefaulter struct{}

// Default does nothing.
func (nopDefaulter) Default(runtime.Object) {}

// stamp sets the metadata the API server owns on obj, the result of a
// write, and does what its defaulting and admission do (see admit); old is
// the stored object, nil on create.
func (t *tracker) stamp(old, obj runtime.Object) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	now := metav1.NewTime(t.now())
	if old == nil {
		m.SetCreationTimestamp(now)
		m.SetUID(types.UID(t.ids.UUID("uid", t.cluster, obj.GetObjectKind().GroupVersionKind().String(),
			m.GetNamespace(), m.GetName(), now.UTC().Format(time.RFC3339Nano))))
		m.SetGeneration(0)
		if _, ok := t.generationRule(obj); ok {
			m.SetGeneration(1)
		}
		m.SetDeletionTimestamp(nil)
		admit(obj)
		if err := t.defaultClaimClass(obj); err != nil {
			return err
		}
		if err := t.defaultIngressClassName(obj); err != nil { // defaultingress.go
			return err
		}
		if err := validateBuiltin(nil, obj); err != nil { // specvalidate.go
			return err
		}
		if err := t.validateCustomResource(nil, obj); err != nil {
			return err
		}
		if err := admitCRD(nil, obj, t.statusWrite); err != nil { // crdvalidate.go
			return err
		}
		if err := t.validatingAdmission(nil, obj); err != nil {
			return err
		}
		initialStatus(obj)
		if err := admitAPIService(obj, true, t.keepStatus, now); err != nil {
			return err
		}
		if err := t.allocate(nil, obj); err != nil {
			return err
		}
		stampManagedFields(m, nil, now)
		return nil
	}
	o, err := meta.Accessor(old)
	if err != nil {
		return err
	}
	m.SetUID(o.GetUID())
	m.SetCreationTimestamp(o.GetCreationTimestamp())
	// Defaulting comes before the comparison, as decoding (which defaults)
	// comes before the registry's: writing a manifest again without the
	// defaults is no change.
	admit(obj)
	if err := validateBuiltin(old, obj); err != nil { // specvalidate.go
		return err
	}
	if err := admitAPIService(obj, false, false, now); err != nil {
		return err
	}
	if err := t.allocate(old, obj); err != nil {
		return err
	}
	if err := t.validateUpdate(old, obj); err != nil {
		return err
	}
	if err := t.validateCustomResource(old, obj); err != nil {
		return err
	}
	if err := admitCRD(old, obj, t.statusWrite); err != nil { // crdvalidate.go
		return err
	}
	if err := t.validatingAdmission(old, obj); err != nil {
		return err
	}
	gen := o.GetGeneration()
	if rule, ok := t.generationRule(obj); ok && gen > 0 && rule.changed(old, obj) {
		gen++
	}
	switch {
	case o.GetDeletionTimestamp() != nil:
		m.SetDeletionTimestamp(o.GetDeletionTimestamp())
	case m.GetDeletionTimestamp() != nil:
		m.SetDeletionTimestamp(&now)
		if gen > 0 { // as the registry store does when a delete only marks the object
			gen++
		}
	}
	m.SetGeneration(gen)
	stampManagedFields(m, o.GetManagedFields(), now)
	return nil
}

// schemaOf is the schema of obj's kind when it is a custom resource whose
// CRD has one.
func (t *tracker) schemaOf(obj runtime.Object) *crSchema {
	if t.crSchema == nil {
		return nil
	}
	if _, ok := obj.(*unstructured.Unstructured); !ok {
		return nil
	}
	return t.crSchema(obj.GetObjectKind().GroupVersionKind())
}

// coerce prunes and defaults obj, of kind gvk, being written, when it is a
// custom resource whose CRD has a schema, as kube-apiserver's decoding
// does (crSchema.coerce).
func (t *tracker) coerce(gvk schema.GroupVersionKind, obj runtime.Object) {
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	if s := t.schemaOf(obj); s != nil {
		s.coerce(obj.(*unstructured.Unstructured))
	}
}

// validateCustomResource validates obj, when it is a custom resource whose
// CRD has a schema, as the custom resource strategy does (old: the stored
// object, nil on create).
func (t *tracker) validateCustomResource(old, obj runtime.Object) error {
	return admitCustomResource(context.Background(), t.schemaOf(obj), old, obj, t.statusWrite)
}

// stampManagedFields keeps the time of entries that did not change and
// sets now on the others.
func stampManagedFields(m metav1.Object, old []metav1.ManagedFieldsEntry, now metav1.Time) {
	entries := m.GetManagedFields()
	for i := range entries {
		e := &entries[i]
		e.Time = &now
		for _, o := range old {
			if o.Manager == e.Manager && o.Operation == e.Operation && o.Subresource == e.Subresource &&
				o.APIVersion == e.APIVersion && semantic.DeepEqual(o.FieldsV1, e.FieldsV1) {
				e.Time = o.Time
			}
		}
	}
	m.SetManagedFields(entries)
}
