package simcluster

import (
	"context"
	"fmt"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// crdKind is what the cluster knows about a kind a CRD serves.
type crdKind struct {
	plural, singular string
	namespaced       bool
	// status is true when the CRD declares the status subresource.
	status bool
	// storage is the CRD's storage version; webhook is true when its
	// conversion strategy is Webhook (conversion.go).
	storage string
	webhook bool
}

// served maps the kinds (each served version) of the stored CRDs.
type served map[schema.GroupVersionKind]crdKind

// servedBy collects the kinds crds serve: those of established CRDs.
func servedBy(crds []apiextensionsv1.CustomResourceDefinition) served {
	out := served{}
	for _, crd := range crds {
		if !established(&crd) {
			continue
		}
		storage := storageVersion(&crd)
		webhook := crd.Spec.Conversion != nil && crd.Spec.Conversion.Strategy == apiextensionsv1.WebhookConverter
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
			out[gvk] = crdKind{
				plural: crd.Spec.Names.Plural, singular: crd.Spec.Names.Singular,
				namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
				status:     v.Subresources != nil && v.Subresources.Status != nil,
				storage:    storage, webhook: webhook,
			}
		}
	}
	return out
}

// storageVersion is the name of crd's storage version (the first marked
// storage), "" when it has none.
func storageVersion(crd *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// established reports whether crd has the condition Established=True.
func established(crd *apiextensionsv1.CustomResourceDefinition) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == apiextensionsv1.Established {
			return c.Status == apiextensionsv1.ConditionTrue
		}
	}
	return false
}

// statusKinds lists the kinds with a status subresource, sorted.
func (s served) statusKinds() []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for gvk, k := range s {
		if k.status {
			out = append(out, gvk)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// mapper returns a RESTMapper for the served kinds.
func (s served) mapper() *meta.DefaultRESTMapper {
	m := meta.NewDefaultRESTMapper(nil)
	for gvk, k := range s {
		addMapping(m, gvk, k)
	}
	return m
}

// addMapping makes m map gvk, served as k says.
func addMapping(m *meta.DefaultRESTMapper, gvk schema.GroupVersionKind, k crdKind) {
	scope := meta.RESTScopeRoot
	if k.namespaced {
		scope = meta.RESTScopeNamespace
	}
	singular := k.singular
	if singular == "" {
		singular = lower(gvk.Kind)
	}
	m.AddSpecific(gvk, gvk.GroupVersion().WithResource(k.plural), gvk.GroupVersion().WithResource(singular), scope)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// refreshCRDs re-reads all stored CRDs (see refreshCRD): after a restore,
// or a write that may have touched any of them.
func (c *Cluster) refreshCRDs(ctx context.Context) error {
	list := &apiextensionsv1.CustomResourceDefinitionList{}
	if err := c.inner.List(ctx, list); err != nil {
		return fmt.Errorf("list CRDs: %w", err)
	}
	c.crdsRead += len(list.Items)
	c.crdServes = make(map[string]served, len(list.Items))
	c.kindCRDs = map[schema.GroupVersionKind]map[string]bool{}
	schemas := c.crdSchemas
	c.crdSchemas = make(map[string]crdSchemaSet, len(list.Items))
	for i := range list.Items {
		if err := c.migrateStorage(&list.Items[i]); err != nil {
			return err
		}
		c.setCRDServes(list.Items[i].Name, servedBy(list.Items[i:i+1]))
		c.crdSchemas[list.Items[i].Name] = schemas[list.Items[i].Name]
		c.cacheSchemas(&list.Items[i])
	}
	changes := map[schema.GroupVersionKind]*crdKind{}
	for gvk := range c.served {
		changes[gvk] = nil
	}
	for gvk := range c.kindCRDs {
		changes[gvk] = c.winner(gvk)
	}
	return c.serveChanges(changes)
}

// refreshCRD re-reads the CRD name, just written or deleted: the kinds the
// stored CRDs serve now become known (scheme, RESTMapper, status
// subresource), kinds no CRD serves any more are forgotten with all their
// objects. Only that CRD is read, and only its kinds are looked at: a
// cluster of many CRDs would otherwise read and map them all at every write
// of one.
func (c *Cluster) refreshCRD(ctx context.Context, name string) error {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	c.crdsRead++
	var next served
	switch err := c.inner.Get(ctx, client.ObjectKey{Name: name}, crd); {
	case apierrors.IsNotFound(err):
		delete(c.crdSchemas, name)
	case err != nil:
		return fmt.Errorf("get CRD %s: %w", name, err)
	default:
		if err := c.migrateStorage(crd); err != nil {
			return err
		}
		next = servedBy([]apiextensionsv1.CustomResourceDefinition{*crd})
		c.cacheSchemas(crd)
	}
	old := c.crdServes[name]
	c.setCRDServes(name, next)
	changes := map[schema.GroupVersionKind]*crdKind{}
	for gvk := range old {
		changes[gvk] = c.winner(gvk)
	}
	for gvk := range next {
		changes[gvk] = c.winner(gvk)
	}
	return c.serveChanges(changes)
}

// setCRDServes records that the CRD name serves s (nothing: it is gone).
func (c *Cluster) setCRDServes(name string, s served) {
	for gvk := range c.crdServes[name] {
		delete(c.kindCRDs[gvk], name)
		if len(c.kindCRDs[gvk]) == 0 {
			delete(c.kindCRDs, gvk)
		}
	}
	if len(s) == 0 {
		delete(c.crdServes, name)
		return
	}
	c.crdServes[name] = s
	for gvk := range s {
		if c.kindCRDs[gvk] == nil {
			c.kindCRDs[gvk] = map[string]bool{}
		}
		c.kindCRDs[gvk][name] = true
	}
}

// winner is how gvk is served: as the CRD of the greatest name that serves
// it says (of two CRDs that serve one kind, the later by name wins), or nil
// when none does.
func (c *Cluster) winner(gvk schema.GroupVersionKind) *crdKind {
	best := c.winnerName(gvk)
	if best == "" {
		return nil
	}
	k := c.crdServes[best][gvk]
	return &k
}

// winnerName names the CRD that serves gvk (see winner); "" when none does.
func (c *Cluster) winnerName(gvk schema.GroupVersionKind) string {
	best := ""
	for name := range c.kindCRDs[gvk] {
		best = max(best, name)
	}
	return best
}

// crdSchemaSet is the schemas of one CRD's versions, built from the CRD of
// uid and resourceVersion when a custom resource of it is first written
// (versions nil until then: a command that writes none builds none).
type crdSchemaSet struct {
	uid, resourceVersion string
	crd                  *apiextensionsv1.CustomResourceDefinition
	versions             map[string]*crSchema
}

// cacheSchemas keeps crd, just read, to build its versions' schemas from,
// unless those of the same uid and resourceVersion are there.
func (c *Cluster) cacheSchemas(crd *apiextensionsv1.CustomResourceDefinition) {
	if had, ok := c.crdSchemas[crd.Name]; ok && had.uid == string(crd.UID) && had.resourceVersion == crd.ResourceVersion {
		return
	}
	c.crdSchemas[crd.Name] = crdSchemaSet{uid: string(crd.UID), resourceVersion: crd.ResourceVersion, crd: crd.DeepCopy()}
}

// schemaOf is the schema of the custom resources of gvk, as the CRD that
// serves it declares it; nil for a built-in kind or a version without one.
func (c *Cluster) schemaOf(gvk schema.GroupVersionKind) *crSchema {
	name := c.winnerName(gvk)
	if name == "" {
		return nil
	}
	set, ok := c.crdSchemas[name]
	if !ok {
		return nil
	}
	if set.versions == nil {
		c.schemasBuilt++
		set.versions = crdSchemas(set.crd)
		c.crdSchemas[name] = set
	}
	return set.versions[gvk.Version]
}

// serveChanges serves each kind of changes as it says, or no longer (nil):
// a kind no longer served is forgotten with its objects; a new one is
// registered and mapped; the fake client is rebuilt when the kinds with a
// status subresource change, the RESTMapper when a kind goes or changes.
func (c *Cluster) serveChanges(changes map[schema.GroupVersionKind]*crdKind) error {
	rebuild, remap := false, c.crdMapper == nil
	var added []schema.GroupVersionKind
	for gvk, k := range changes {
		old, had := c.served[gvk]
		switch {
		case k == nil && !had, k != nil && had && old == *k:
		case k == nil:
			if err := c.dropKind(gvk); err != nil {
				return err
			}
			delete(c.served, gvk)
			c.servedGen++
			rebuild, remap = rebuild || old.status, true
		default:
			c.served[gvk] = *k
			c.servedGen++
			rebuild = rebuild || old.status != k.status
			if had {
				remap = true
			} else {
				added = append(added, gvk)
			}
		}
	}
	registerKinds(c.scheme, added)
	if remap {
		c.crdMapper = c.served.mapper()
		c.mapper.set(meta.MultiRESTMapper{c.crdMapper, c.base})
	} else {
		for _, gvk := range added {
			addMapping(c.crdMapper, gvk, c.served[gvk])
		}
	}
	if rebuild {
		c.build()
	}
	return nil
}

// dropKind deletes every object of gvk, whose CRD is gone.
func (c *Cluster) dropKind(gvk schema.GroupVersionKind) error {
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	if _, ok := c.tracker.kinds[gvr]; !ok {
		return nil
	}
	list, err := c.tracker.ObjectTracker.List(gvr, gvk, "")
	if err != nil {
		return fmt.Errorf("list %s: %w", gvk.Kind, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return err
	}
	for _, it := range items {
		m, _ := meta.Accessor(it)
		if err := c.tracker.Delete(gvr, m.GetNamespace(), m.GetName()); err != nil {
			return fmt.Errorf("delete %s %s: %w", gvk.Kind, m.GetName(), err)
		}
		delete(c.pending, objectRef{gvk: gvk, namespace: m.GetNamespace(), name: m.GetName()})
	}
	c.tracker.forget(gvk)
	return nil
}

// registerKinds makes the scheme know the served custom resource kinds gvks
// as unstructured objects, so that the fake client can store and list them.
func registerKinds(scheme *runtime.Scheme, gvks []schema.GroupVersionKind) {
	for _, gvk := range gvks {
		if scheme.Recognizes(gvk) {
			continue
		}
		scheme.AddKnownTypeWithName(gvk, &unstructured.Unstructured{})
		scheme.AddKnownTypeWithName(gvk.GroupVersion().WithKind(gvk.Kind+"List"), &unstructured.UnstructuredList{})
	}
}
