package simcluster

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lscli/lscli/fakecluster"
)

// Cluster is one simulated cluster: the cluster that one or more Targets
// reach (see Key).
type Cluster struct {
	key string
	set *Clusters
	// scheme knows the kinds the cluster serves: the set's, or, for the
	// simulation's own cluster, one with the Landscaper kinds too.
	scheme *runtime.Scheme
	// base maps the kinds the cluster serves without a CRD.
	base meta.RESTMapper
	// own is the simulation's own API server when this is the cluster of
	// selfConfig Targets (see self.go); nil for every other cluster.
	own     *fakecluster.Cluster
	tracker *tracker
	inner   client.WithWatch
	mapper  *dynamicMapper
	served  served
	// servedGen counts the changes of served; versionSet is what
	// MemoVersionSet computed at versionSetGen.
	servedGen, versionSetGen uint64
	versionSet               []string
	// crdServes is what each stored CRD serves, by CRD name (see
	// refreshCRD); served merges them.
	crdServes map[string]served
	// kindCRDs names the CRDs that serve each kind.
	kindCRDs map[schema.GroupVersionKind]map[string]bool
	// crdSchemas are the schemas of each stored CRD's versions, by CRD
	// name, built once for each write of the CRD (see cacheSchemas).
	crdSchemas map[string]crdSchemaSet
	// schemasBuilt counts the CRDs whose schemas were built, for tests
	// that check a custom resource's write builds none.
	schemasBuilt int
	// crdMapper maps the served kinds; nil until the first refresh.
	crdMapper *meta.DefaultRESTMapper
	// crdsRead counts the CRDs read to keep served up to date, for tests
	// that check a write of one CRD does not read them all.
	crdsRead int
	// pending are status fills the fake controllers do later (rules with a
	// duration).
	pending map[objectRef]pendingFill
	// waiting are the workloads whose pods miss an object (prereqs.go).
	waiting map[objectRef]struct{}
	// expiring are the finished Jobs with a TTL, with the time it expires;
	// finished are the Jobs the fake controller finished in this process,
	// with when (ttl.go).
	expiring map[objectRef]time.Time
	finished map[objectRef]finishMark
	// ranWrites are the Secrets and ConfigMaps that Jobs and Pods which ran
	// to completion created in this process, with when (podstart.go).
	ranWrites map[objectRef]time.Time
	// gc are the deleted owners whose dependents the garbage collector
	// looks at in the next step (gc.go).
	gc []gcOwner
	// policies are the compiled ValidatingAdmissionPolicies
	// (admissionpolicy.go).
	policies policyCache
	// conversions route custom resources of non-storage versions to
	// their storage version (conversion.go).
	conversions conversionRoutes
}

// objectRef names one stored object.
type objectRef struct {
	gvk             schema.GroupVersionKind
	namespace, name string
}

// pendingFill is a status fill due at a later virtual time, for one
// generation of one object.
type pendingFill struct {
	due        time.Time
	uid        string
	generation int64
}

func newCluster(set *Clusters, key string) *Cluster {
	c := &Cluster{key: key, set: set, scheme: set.scheme, base: builtinRESTMapper(set.minor),
		served: served{}, crdServes: map[string]served{}, crdSchemas: map[string]crdSchemaSet{}, kindCRDs: map[schema.GroupVersionKind]map[string]bool{},
		pending: map[objectRef]pendingFill{}, waiting: map[objectRef]struct{}{},
		expiring: map[objectRef]time.Time{}, finished: map[objectRef]finishMark{}, ranWrites: map[objectRef]time.Time{}}
	var store testing.ObjectTracker
	if key == SelfKey && set.opts.Landscape != nil {
		c.own = set.opts.Landscape
		c.scheme, c.base = selfScheme(), meta.MultiRESTMapper{builtinRESTMapper(set.minor), landscapeMapper()}
		store = newSelfStore(c.scheme, c.own)
	} else {
		store = testing.NewObjectTracker(c.scheme, serializer.NewCodecFactory(c.scheme).UniversalDecoder())
	}
	c.tracker = newTracker(c.scheme, converter(), set.opts.Now, set.opts.IDs, key, store)
	c.tracker.changes = &set.changes
	if c.own == nil {
		// Only the tracker writes this store: it can keep the label index.
		c.tracker.index = labelIndex{}
		c.tracker.owners = newOwnerIndex()
		c.tracker.tokenSecrets = map[string]map[string]bool{}
	}
	c.mapper = &dynamicMapper{RESTMapper: c.base}
	c.tracker.hasStatus = func(gvk schema.GroupVersionKind) bool { return c.served[gvk].status }
	c.tracker.crSchema = c.schemaOf
	c.tracker.routes = c.routeOf // conversion.go
	c.tracker.deleted = c.ownerDeleted
	c.tracker.validating = c.admitValidating // podsecurity.go, admissionpolicy.go
	c.build()
	return c
}

// build (re)builds the fake client over the cluster's tracker, with the
// status subresource for the built-in kinds and the served custom kinds
// that declare it.
func (c *Cluster) build() {
	b := fake.NewClientBuilder().WithScheme(c.scheme).WithRESTMapper(c.mapper).
		WithObjectTracker(c.tracker).WithReturnManagedFields()
	for _, obj := range builtinStatusObjects() {
		b = b.WithStatusSubresource(obj)
	}
	for _, obj := range c.ownStatusKinds() {
		b = b.WithStatusSubresource(obj)
	}
	for _, gvk := range c.served.statusKinds() {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		b = b.WithStatusSubresource(u)
	}
	c.inner = b.Build()
}

// Key is the key of the cluster (see the function Key).
func (c *Cluster) Key() string { return c.key }

// Client returns a client of the cluster: what deployers get from
// Clusters.ForTarget.
func (c *Cluster) Client() client.Client { return &clusterClient{c: c} }

// Objects returns every object of the cluster, sorted by apiVersion, kind,
// namespace and name, after the fake controllers did what is due.
func (c *Cluster) Objects(ctx context.Context) ([]*unstructured.Unstructured, error) {
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	if err := c.settle(ctx); err != nil {
		return nil, err
	}
	objs, err := c.stored()
	if err != nil {
		return nil, fmt.Errorf("simulated cluster %s: %w", c.key, err)
	}
	objs = append(objs, c.ownObjects()...)
	sort.Slice(objs, func(i, j int) bool { return sortKey(objs[i]) < sortKey(objs[j]) })
	out := make([]*unstructured.Unstructured, 0, len(objs))
	for _, o := range objs {
		u, err := toUnstructured(o)
		if err != nil {
			return nil, fmt.Errorf("simulated cluster %s: %w", c.key, err)
		}
		out = append(out, u)
	}
	return out, nil
}

// stored returns the objects the cluster keeps itself (not those the own
// API server keeps, see self.go), sorted by apiVersion, kind, namespace and
// name.
func (c *Cluster) stored() ([]runtime.Object, error) {
	objs, err := c.tracker.all()
	if err != nil || c.own == nil {
		return objs, err
	}
	return slices.DeleteFunc(objs, c.keptByOwn), nil
}

// toUnstructured converts a stored object, keeping its kind.
func toUnstructured(o runtime.Object) (*unstructured.Unstructured, error) {
	gvk := o.GetObjectKind().GroupVersionKind()
	if u, ok := o.(*unstructured.Unstructured); ok {
		u = u.DeepCopy()
		u.SetGroupVersionKind(gvk)
		return u, nil
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return nil, fmt.Errorf("convert %s: %w", gvk.Kind, err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// kindOf returns the kind of obj, or a NoKindMatchError when the cluster
// does not serve it: a custom resource whose CRD does not exist (yet).
func (c *Cluster) kindOf(obj runtime.Object) (schema.GroupVersionKind, error) {
	gvk, err := c.Client().GroupVersionKindFor(obj)
	if err != nil {
		return gvk, err
	}
	if meta.IsListType(obj) && isListKind(gvk) {
		gvk.Kind = gvk.Kind[:len(gvk.Kind)-4]
	}
	if !c.serves(gvk) {
		return gvk, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
	}
	return gvk, nil
}

// serves reports whether gvk is a built-in kind the cluster's Kubernetes
// version serves, or served by a CRD.
func (c *Cluster) serves(gvk schema.GroupVersionKind) bool {
	_, crd := c.served[gvk]
	return crd || isBuiltin(gvk) && servesKind(gvk, c.set.minor) || c.own != nil && c.own.Scheme().Recognizes(gvk) && !isListKind(gvk)
}

// namespaced reports whether gvk is a namespaced kind.
func (c *Cluster) namespaced(gvk schema.GroupVersionKind) bool {
	if k, ok := c.served[gvk]; ok {
		return k.namespaced
	}
	return !clusterScoped()[gvk.GroupKind()]
}

// scope clears the namespace of a cluster-scoped object and, when create is
// true, requires the namespace of a namespaced one to exist.
func (c *Cluster) scope(ctx context.Context, gvk schema.GroupVersionKind, obj metav1.Object, create bool) error {
	if !c.namespaced(gvk) {
		obj.SetNamespace("")
		return validateMeta(gvk.GroupKind(), obj, create)
	}
	ns := obj.GetNamespace()
	if ns == "" {
		return apierrors.NewBadRequest(fmt.Sprintf("%s %q: an empty namespace may not be set for a namespaced kind", gvk.Kind, obj.GetName()))
	}
	if create && c.own == nil { // the simulation's own API server does not keep namespaces
		err := c.inner.Get(ctx, client.ObjectKey{Name: ns}, &corev1.Namespace{})
		if apierrors.IsNotFound(err) {
			return apierrors.NewNotFound(corev1.Resource("namespaces"), ns)
		}
		if err != nil {
			return err
		}
		if err := c.forbidTerminating(ctx, gvk, ns, obj.GetName()); err != nil {
			return err
		}
	}
	if create && gvk == podGVK {
		if err := c.admitPod(ctx, obj); err != nil {
			return err
		}
	}
	return validateMeta(gvk.GroupKind(), obj, create)
}

// afterWrite lets the cluster react to a written object: the fake
// controllers look at it; a CRD may change the served kinds.
func (c *Cluster) afterWrite(ctx context.Context, gvk schema.GroupVersionKind, ns, name string) error {
	if err := c.finishNamespace(ctx, ns); err != nil {
		return err
	}
	if err := c.control(ctx, objectRef{gvk: gvk, namespace: ns, name: name}); err != nil {
		return err
	}
	if err := c.recheck(ctx, gvk, ns, name); err != nil {
		return err
	}
	if err := c.namespaceWritten(ctx, gvk, name); err != nil { // podsecurity.go
		return err
	}
	if err := c.priorityClassWritten(ctx, gvk, name); err != nil { // priorityclass.go
		return err
	}
	if gvk.GroupKind() == storageClassGroupKind {
		if err := c.classWritten(ctx); err != nil { // firstconsumer.go
			return err
		}
	}
	if isVolumeKind(gvk) {
		if err := c.volumeWritten(ctx, name); err != nil { // volumes.go
			return err
		}
	}
	if err := c.tokenController(ctx, gvk, ns, name, false); err != nil {
		return err
	}
	if err := c.checkAPIServices(ctx, gvk, ns, name); err != nil {
		return err
	}
	if gvk.Group == certificateGVK.Group {
		if err := c.certManagerWritten(ctx, gvk, ns, name); err != nil { // certmanagerissue.go
			return err
		}
	}
	if gvk.GroupKind() == clusterRoleGroupKind {
		if err := c.aggregateClusterRoles(ctx); err != nil { // aggregation.go
			return err
		}
	}
	if gvk.GroupKind() == crdGroupKind {
		return c.refreshCRD(ctx, name)
	}
	return nil
}

// afterDelete cascades: a CRD takes its custom resources, a Namespace the
// objects in it, a ServiceAccount its token Secrets, the last user of a
// deleted claim its pvc-protection finalizer; the APIServices of a
// deleted Service (or of the Services of a deleted Namespace) become
// unavailable.
func (c *Cluster) afterDelete(ctx context.Context, gvk schema.GroupVersionKind, ns, name string) error {
	var err error
	switch gvk.GroupKind() {
	case schema.GroupKind{Kind: "ServiceAccount"}:
		err = c.tokenController(ctx, gvk, ns, name, true)
	case crdGroupKind:
		err = c.refreshCRD(ctx, name)
	case schema.GroupKind{Kind: "Namespace"}:
		err = c.emptyNamespace(ctx, name)
	default:
		err = c.releaseClaims(ctx, ns)
		if err == nil {
			err = c.finishNamespace(ctx, ns)
		}
	}
	if err != nil {
		return err
	}
	return c.checkAPIServices(ctx, gvk, ns, name)
}

// emptyNamespace deletes the objects in ns, as the namespace controller does.
func (c *Cluster) emptyNamespace(ctx context.Context, ns string) error {
	var gvks []schema.GroupVersionKind
	for _, gvk := range c.tracker.kinds {
		if c.namespaced(gvk) {
			gvks = append(gvks, gvk)
		}
	}
	sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })
	for _, gvk := range gvks {
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		if err := c.inner.List(ctx, list, client.InNamespace(ns)); err != nil {
			return fmt.Errorf("list %s in namespace %s: %w", gvk.Kind, ns, err)
		}
		for i := range list.Items {
			if err := c.inner.Delete(ctx, &list.Items[i]); client.IgnoreNotFound(err) != nil {
				return fmt.Errorf("delete %s %s/%s: %w", gvk.Kind, ns, list.Items[i].GetName(), err)
			}
		}
	}
	if err := c.releaseClaims(ctx, ns); err != nil {
		return err
	}
	// The APIServices of its Services see them gone.
	return c.checkAPIServices(ctx, schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, "", ns)
}

// generateName fills metadata.name from generateName with five characters
// from the seeded random source, as the API server does.
func (c *Cluster) generateName(obj metav1.Object) {
	if obj.GetName() != "" || obj.GetGenerateName() == "" {
		return
	}
	owner := ""
	if ref := metav1.GetControllerOf(obj); ref != nil {
		owner = ref.Kind + "/" + ref.Name
	} else if refs := obj.GetOwnerReferences(); len(refs) > 0 {
		owner = refs[0].Kind + "/" + refs[0].Name
	}
	kind := ""
	if ro, ok := obj.(runtime.Object); ok {
		kind = ro.GetObjectKind().GroupVersionKind().Kind
	}
	obj.SetName(c.set.opts.IDs.GenerateName(obj.GetGenerateName(), c.key, kind, obj.GetNamespace(), owner))
}

// dynamicMapper is a RESTMapper whose delegate changes when CRDs do; the
// fake client holds a pointer to it.
type dynamicMapper struct {
	meta.RESTMapper
}

func (m *dynamicMapper) set(d meta.RESTMapper) { m.RESTMapper = d }

var crdGroupKind = schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}
