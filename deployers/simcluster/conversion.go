package simcluster

import (
	"fmt"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Conversion of custom resources between the versions of their CRD.
//
// kube-apiserver keeps a custom resource in its CRD's storage version
// whatever version it was written in, and answers every request in the
// version the request names (apiextensions-apiserver's
// pkg/apiserver/conversion): with strategy None by rewriting the
// apiVersion (nopConverter), with strategy Webhook by asking the CRD's
// conversion webhook. The fake client keeps objects by resource, whose
// version is the request's, so the tracker routes every request for a
// served version other than the storage version to the storage version's
// resource (conversionRoute), rewriting the apiVersion on the way in and
// out. A webhook that kube-apiserver could call is taken to convert as
// None does (the operator's code is not run); one it could not call
// fails the request in its words (conversionwebhook.go).
//
// kube-apiserver keeps a built-in kind served in several versions once,
// too, in its storage version, and converts it between versions by its
// internal type. Of the kinds a simulated cluster serves, only
// HorizontalPodAutoscaler is served in two versions (autoscaling/v1 and
// autoscaling/v2, kept in v2): its route converts by the scheme
// (hpaconversion.go). Every other built-in kind has one served version and
// no route; finding that out costs one map lookup (builtinRoutes).

// conversionRoute is how the objects of one served version of a custom
// resource kind (from) are kept: in the storage version of the CRD that
// serves it (to).
type conversionRoute struct {
	from, to schema.GroupVersionKind
	// crd is the name of the CRD; webhook is true for its strategy
	// Webhook.
	crd     string
	webhook bool
	// builtin is true for a built-in kind, whose versions differ in more
	// than their apiVersion: the scheme converts between them.
	builtin bool
}

// builtinRoutes are the routes of the built-in kinds served in several
// versions, by the resource of the version that is not stored: those of
// HorizontalPodAutoscaler, stored in autoscaling/v2 (kube-apiserver's
// storage version of the group, its preferred version, since autoscaling/v2
// is served; an older release that does not serve it has no route).
var builtinRoutes = map[schema.GroupVersionResource]conversionRoute{
	autoscalingv1.SchemeGroupVersion.WithResource("horizontalpodautoscalers"): {
		from:    autoscalingv1.SchemeGroupVersion.WithKind("HorizontalPodAutoscaler"),
		to:      autoscalingv2.SchemeGroupVersion.WithKind("HorizontalPodAutoscaler"),
		builtin: true,
	},
}

// storedResource is the resource under which the fake client keeps the
// objects of the storage version.
func (r conversionRoute) storedResource() schema.GroupVersionResource {
	gvr, _ := meta.UnsafeGuessKindToResource(r.to)
	return gvr
}

// conversionRoutes maps the resource under which the fake client would
// keep the objects of each served non-storage version of a custom
// resource kind (the kind's guessed resource, as the fake client guesses
// it) to its route, computed again once the served kinds changed.
type conversionRoutes struct {
	gen    uint64
	routes map[schema.GroupVersionResource]conversionRoute
}

// routeOf is the route of the objects the fake client asks for by gvr;
// false when they are kept under gvr itself (a built-in kind, a custom
// resource of its storage version).
func (c *Cluster) routeOf(gvr schema.GroupVersionResource) (conversionRoute, bool) {
	if r, ok := builtinRoutes[gvr]; ok {
		// The simulation's own cluster keeps Landscaper's objects only.
		return r, c.own == nil && servesKind(r.to, c.set.minor)
	}
	if len(c.served) == 0 {
		return conversionRoute{}, false
	}
	if c.conversions.routes == nil || c.conversions.gen != c.servedGen {
		c.conversions = conversionRoutes{gen: c.servedGen, routes: map[schema.GroupVersionResource]conversionRoute{}}
		for gvk, k := range c.served {
			if k.storage == "" || k.storage == gvk.Version {
				continue
			}
			from, _ := meta.UnsafeGuessKindToResource(gvk)
			c.conversions.routes[from] = conversionRoute{from: gvk, to: gvk.GroupKind().WithVersion(k.storage),
				crd: c.winnerName(gvk), webhook: k.webhook}
		}
	}
	r, ok := c.conversions.routes[gvr]
	return r, ok
}

// setVersion rewrites the apiVersion of obj, a custom resource (or a list
// of them), to gv's, as kube-apiserver's nopConverter does.
func setVersion(obj runtime.Object, gv schema.GroupVersion) {
	if meta.IsListType(obj) {
		_ = meta.EachListItem(obj, func(item runtime.Object) error {
			setVersion(item, gv)
			return nil
		})
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" {
		return
	}
	obj.GetObjectKind().SetGroupVersionKind(gv.WithKind(gvk.Kind))
}

// inVersion returns obj, of route r's kinds (or a list of them), in
// version gv: a custom resource with its apiVersion rewritten (setVersion,
// in place), a built-in kind converted by the scheme (a new object).
func (t *tracker) inVersion(r conversionRoute, obj runtime.Object, gv schema.GroupVersion) (runtime.Object, error) {
	if !r.builtin {
		setVersion(obj, gv)
		return obj, nil
	}
	if !meta.IsListType(obj) {
		out, err := t.scheme.ConvertToVersion(obj, gv)
		if err != nil {
			return nil, fmt.Errorf("convert %s to %s: %w", r.from.Kind, gv, err)
		}
		return out, nil
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		return nil, err
	}
	for i, it := range items {
		if items[i], err = t.inVersion(r, it, gv); err != nil {
			return nil, err
		}
	}
	list, err := t.scheme.New(gv.WithKind(r.from.Kind + "List"))
	if err != nil {
		return nil, err
	}
	from, err := meta.ListAccessor(obj)
	if err != nil {
		return nil, err
	}
	to, err := meta.ListAccessor(list)
	if err != nil {
		return nil, err
	}
	to.SetResourceVersion(from.GetResourceVersion())
	to.SetContinue(from.GetContinue())
	list.GetObjectKind().SetGroupVersionKind(gv.WithKind(r.from.Kind + "List"))
	return list, meta.SetList(list, items)
}

// toStorage converts out, of kind gvk, about to be stored under gvr, to
// the storage version when gvr is routed (see routeOf), and returns the
// resource to store it under, its kind there and the object to store (out
// itself but for a built-in kind).
func (t *tracker) toStorage(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, out runtime.Object) (schema.GroupVersionResource, schema.GroupVersionKind, runtime.Object, error) {
	r, ok := t.route(gvr)
	if !ok {
		return gvr, gvk, out, nil
	}
	stored, err := t.inVersion(r, out, r.to.GroupVersion())
	if err != nil {
		return gvr, gvk, nil, err
	}
	if r.builtin {
		admit(stored) // the storage version's defaults, as kube-apiserver decodes a stored object with them
		t.storedGeneration(r, stored)
	}
	return r.storedResource(), r.to, stored, nil
}

// storedGeneration makes the generation of obj, the result of an update
// through route r in the storage version, one more than the stored
// object's when their versioned fields differ there: kube-apiserver
// compares its internal objects, in which a write that changes nothing in
// the request's version may still change something (an autoscaling/v1
// update moves the CPU metric of an HPA after its other metrics).
func (t *tracker) storedGeneration(r conversionRoute, obj runtime.Object) {
	rule, ok := t.generationRule(obj)
	m, err := meta.Accessor(obj)
	if !ok || err != nil || m.GetGeneration() == 0 {
		return
	}
	old, err := t.ObjectTracker.Get(r.storedResource(), m.GetNamespace(), m.GetName())
	if err != nil {
		return // a create
	}
	o, err := meta.Accessor(old)
	if err == nil && m.GetGeneration() == o.GetGeneration() && rule.changed(old, obj) {
		m.SetGeneration(o.GetGeneration() + 1)
	}
}

// route is the conversion route of gvr (see Cluster.routeOf); false
// without one.
func (t *tracker) route(gvr schema.GroupVersionResource) (conversionRoute, bool) {
	if t.routes == nil {
		return conversionRoute{}, false
	}
	return t.routes(gvr)
}

// storedGVR is the resource the objects of gvr are kept under.
func (t *tracker) storedGVR(gvr schema.GroupVersionResource) schema.GroupVersionResource {
	if r, ok := t.route(gvr); ok {
		return r.storedResource()
	}
	return gvr
}

// Get reads the object ns/name of gvr: of a routed version, the stored one
// in that version.
func (t *tracker) Get(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.GetOptions) (runtime.Object, error) {
	r, ok := t.route(gvr)
	if !ok {
		return t.ObjectTracker.Get(gvr, ns, name, opts...)
	}
	obj, err := t.ObjectTracker.Get(r.storedResource(), ns, name, opts...)
	if err != nil {
		return nil, err
	}
	return t.inVersion(r, obj, r.from.GroupVersion())
}

// migrateStorage keeps the custom resources of crd, just read, in its
// storage version (see tracker.migrateStorage).
func (c *Cluster) migrateStorage(crd *apiextensionsv1.CustomResourceDefinition) error {
	storage := storageVersion(crd)
	if storage == "" || c.own != nil {
		return nil
	}
	if err := c.tracker.migrateStorage(schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}, storage); err != nil {
		return fmt.Errorf("simulated cluster %s: CRD %s: %w", c.key, crd.Name, err)
	}
	return nil
}

// migrateStorage moves the objects of the custom resource kind gk that
// the store keeps under a version other than storage (written before the
// CRD's storage version changed, or by an lscli that kept every version
// apart) to storage, as they are read from the store from now on.
func (t *tracker) migrateStorage(gk schema.GroupKind, storage string) error {
	for gvr, gvk := range t.kinds {
		if gvk.GroupKind() != gk || gvk.Version == storage {
			continue
		}
		to := gk.WithVersion(storage)
		// Restored objects come before their CRDs serve (and register) the
		// kinds.
		registerKinds(t.scheme, []schema.GroupVersionKind{gvk, to})
		if err := t.move(gvr, gvk, to, func(obj runtime.Object) (runtime.Object, error) {
			setVersion(obj, to.GroupVersion())
			return obj, nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// migrateBuiltinStorage moves the objects of built-in kinds that an older
// lscli kept in each version they were written in (HorizontalPodAutoscalers
// written in autoscaling/v1) to their storage version, converted, after a
// restore.
func (c *Cluster) migrateBuiltinStorage() error {
	for gvr := range builtinRoutes {
		r, ok := c.routeOf(gvr)
		gvk, stored := c.tracker.kinds[gvr]
		if !ok || !stored {
			continue
		}
		if err := c.tracker.move(gvr, gvk, r.to, func(obj runtime.Object) (runtime.Object, error) {
			out, err := c.tracker.inVersion(r, obj, r.to.GroupVersion())
			if err == nil {
				admit(out) // the storage version's defaults
			}
			return out, err
		}); err != nil {
			return fmt.Errorf("simulated cluster %s: %w", c.key, err)
		}
	}
	return nil
}

// move moves every object the store keeps under gvr, of kind gvk, to kind
// to, converted by convert. Where the store holds an object of the same
// name in to already (an older lscli kept both), the one written last
// stays (see writtenAfter).
func (t *tracker) move(gvr schema.GroupVersionResource, gvk, to schema.GroupVersionKind, convert func(runtime.Object) (runtime.Object, error)) error {
	list, err := t.ObjectTracker.List(gvr, gvk, "")
	if err != nil {
		return fmt.Errorf("list %s: %w", gvk, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return err
	}
	toGVR, _ := meta.UnsafeGuessKindToResource(to)
	for _, it := range items {
		m, err := meta.Accessor(it)
		if err != nil {
			return err
		}
		ns, name := m.GetNamespace(), m.GetName()
		if err := t.ObjectTracker.Delete(gvr, ns, name); err != nil {
			return fmt.Errorf("move %s %s to %s: %w", gvk, name, to.Version, err)
		}
		t.reindex(gvr, ns, name)
		if kept, err := t.ObjectTracker.Get(toGVR, ns, name); err == nil && !writtenAfter(it, kept) {
			continue
		}
		moved, err := convert(it)
		if err != nil {
			return fmt.Errorf("move %s %s to %s: %w", gvk, name, to.Version, err)
		}
		if err := t.ObjectTracker.Add(moved); err != nil {
			return fmt.Errorf("move %s %s to %s: %w", gvk, name, to.Version, err)
		}
		t.reindex(toGVR, ns, name)
	}
	if len(items) > 0 {
		t.remember(to)
	}
	delete(t.kinds, gvr)
	return nil
}

// writtenAfter reports whether a was written after b: the last time in
// its managedFields is later (on a tie, b stays).
func writtenAfter(a, b runtime.Object) bool {
	last := func(obj runtime.Object) time.Time {
		var out time.Time
		if m, err := meta.Accessor(obj); err == nil {
			for _, e := range m.GetManagedFields() {
				if e.Time != nil && e.Time.After(out) {
					out = e.Time.Time
				}
			}
		}
		return out
	}
	return last(a).After(last(b))
}
