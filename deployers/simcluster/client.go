package simcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// clusterClient is the client.Client of a simulated cluster. Every call
// first lets the fake controllers do what is due at the current virtual
// time, then checks that the cluster serves the kind, then goes to the fake
// client; writes are followed by the cluster's reactions (CRDs, cascades,
// fake controllers).
type clusterClient struct {
	c *Cluster
}

var _ client.Client = (*clusterClient)(nil)

// lock holds the lock of the cluster set until the returned func is called.
func (cc *clusterClient) lock() func() {
	cc.c.set.mu.Lock()
	return cc.c.set.mu.Unlock
}

// begin settles due work and returns the kind of obj. The caller holds the
// lock.
func (cc *clusterClient) begin(ctx context.Context, obj runtime.Object) (schema.GroupVersionKind, error) {
	if err := cc.c.settle(ctx); err != nil {
		return schema.GroupVersionKind{}, err
	}
	return cc.c.kindOf(obj)
}

// Get reads one object.
func (cc *clusterClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	defer cc.lock()()
	gvk, err := cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	if err := cc.c.convertForRead(ctx, gvk, key.Namespace, key.Name); err != nil {
		return err // conversionwebhook.go
	}
	return cc.c.inner.Get(ctx, key, obj, opts...)
}

// List lists objects.
func (cc *clusterClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	defer cc.lock()()
	gvk, err := cc.begin(ctx, list)
	if err != nil {
		return err
	}
	if err := cc.c.convertForList(ctx, gvk, (&client.ListOptions{}).ApplyOptions(opts).Namespace); err != nil {
		return err // conversionwebhook.go
	}
	defer cc.c.tracker.selecting((&client.ListOptions{}).ApplyOptions(opts).LabelSelector)()
	return cc.c.inner.List(ctx, list, opts...)
}

// Create creates obj; its namespace must exist.
func (cc *clusterClient) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	defer cc.lock()()
	if err := checkBodySize(obj); err != nil { // objsize.go
		return err
	}
	gvk, err := cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	if err := cc.c.scope(ctx, gvk, obj, true); err != nil {
		return err
	}
	cc.c.generateName(obj)
	if err := cc.c.admitObject(ctx, gvk, obj, admissionregistrationv1.Create); err != nil {
		return err // webhookcall.go
	}
	if err := cc.c.convertForWrite(ctx, gvk); err != nil {
		return err // conversionwebhook.go
	}
	if err := cc.c.inner.Create(ctx, obj, opts...); err != nil {
		return undecodable(gvk, err)
	}
	if err := cc.readBack(ctx, obj, (&client.CreateOptions{}).ApplyOptions(opts).DryRun); err != nil {
		return err
	}
	return cc.c.afterWrite(ctx, gvk, obj.GetNamespace(), obj.GetName())
}

// readBack reads the object just written into obj, as a real API server
// answers a write with the stored object: the fake client leaves uid,
// creationTimestamp and generation, which the tracker sets on its own copy,
// out of obj when obj is unstructured or of a built-in kind. Dry runs store
// nothing and read nothing. The caller holds the lock.
func (cc *clusterClient) readBack(ctx context.Context, obj client.Object, dryRun []string) error {
	if slices.Contains(dryRun, metav1.DryRunAll) {
		return nil
	}
	// An update that removes the last finalizer of a deleted object removes
	// it: the answer is what was sent.
	return client.IgnoreNotFound(cc.c.inner.Get(ctx, client.ObjectKeyFromObject(obj), obj))
}

// Update replaces obj.
func (cc *clusterClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	defer cc.lock()()
	if err := checkBodySize(obj); err != nil { // objsize.go
		return err
	}
	gvk, err := cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	if err := cc.c.scope(ctx, gvk, obj, false); err != nil {
		return err
	}
	if err := cc.c.admitObject(ctx, gvk, obj, admissionregistrationv1.Update); err != nil {
		return err // webhookcall.go
	}
	if err := cc.c.convertForUpdate(ctx, gvk, obj.GetNamespace(), obj.GetName()); err != nil {
		return err // conversionwebhook.go
	}
	cc.c.keepDeletion(ctx, gvk, obj)
	if err := cc.c.keepNamespaceFinalizer(ctx, gvk, obj); err != nil {
		return err
	}
	if err := cc.c.inner.Update(ctx, obj, opts...); err != nil {
		return undecodable(gvk, err)
	}
	if err := cc.readBack(ctx, obj, (&client.UpdateOptions{}).ApplyOptions(opts).DryRun); err != nil {
		return err
	}
	return cc.c.afterWrite(ctx, gvk, obj.GetNamespace(), obj.GetName())
}

// Patch patches obj; an apply patch may create it, so its namespace must
// exist then.
func (cc *clusterClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	defer cc.lock()()
	gvk, err := cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	if err := cc.c.scope(ctx, gvk, obj, patch.Type() == types.ApplyPatchType); err != nil {
		return err
	}
	if err := cc.c.admitWrite(ctx, gvk, obj); err != nil {
		return err
	}
	if err := cc.c.convertForUpdate(ctx, gvk, obj.GetNamespace(), obj.GetName()); err != nil {
		return err // conversionwebhook.go
	}
	if err := cc.c.inner.Patch(ctx, obj, patch, opts...); err != nil {
		return cc.undecodablePatch(ctx, gvk, obj, patch, err)
	}
	return cc.c.afterWrite(ctx, gvk, obj.GetNamespace(), obj.GetName())
}

// Apply is server-side apply of an apply configuration.
func (cc *clusterClient) Apply(ctx context.Context, ac runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
	defer cc.lock()()
	u, err := applied(ac)
	if err != nil {
		return err
	}
	gvk, err := cc.begin(ctx, u)
	if err != nil {
		return err
	}
	if err := cc.c.scope(ctx, gvk, u, true); err != nil {
		return err
	}
	if err := cc.c.admitWrite(ctx, gvk, u); err != nil {
		return err
	}
	if err := cc.c.convertForUpdate(ctx, gvk, u.GetNamespace(), u.GetName()); err != nil {
		return err // conversionwebhook.go
	}
	if err := cc.c.inner.Apply(ctx, ac, opts...); err != nil {
		return cc.undecodablePatch(ctx, gvk, u, client.Apply, err) // patcherr.go
	}
	return cc.c.afterWrite(ctx, gvk, u.GetNamespace(), u.GetName())
}

// undecodable returns err, an error of a write to the cluster's store, as
// kube-apiserver words a body it cannot decode into the kind's type (a
// string field given a number, say): a BadRequest "KIND in version "V"
// cannot be handled as a KIND: ..." (k8s.io/apiserver pkg/endpoints/
// handlers, transformDecodeError, which its create and update handlers
// call), where the fake client names Go types. Any other error is
// returned as it is.
func undecodable(gvk schema.GroupVersionKind, err error) error {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		return err
	}
	// The fake client wraps the decoder's error (sigs.k8s.io/json, as
	// kube-apiserver's, whose error types are internal) in this text.
	var inner error
	for e := err; e != nil && inner == nil; e = errors.Unwrap(e) {
		if strings.HasPrefix(e.Error(), "failed to unmarshal the content of ") {
			inner = errors.Unwrap(e)
		}
	}
	if inner == nil {
		return err
	}
	return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, gvk.Kind, inner))
}

// applied reads kind, namespace and name of an apply configuration.
func applied(ac runtime.ApplyConfiguration) (*unstructured.Unstructured, error) {
	data, err := json.Marshal(ac)
	if err != nil {
		return nil, fmt.Errorf("marshal apply configuration: %w", err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("apply configuration: %w", err)
	}
	return u, nil
}

// Delete deletes obj (or marks it while it has finalizers).
func (cc *clusterClient) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	defer cc.lock()()
	gvk, err := cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	if err := checkDelete(gvk.Kind, obj.GetName()); err != nil {
		return err
	}
	if err := cc.c.convertForRead(ctx, gvk, obj.GetNamespace(), obj.GetName()); err != nil {
		return err // conversionwebhook.go: the stored object is read first
	}
	if err := cc.c.admitDelete(ctx, gvk, obj); err != nil {
		return err
	}
	// The garbage collector (gc.go) learns of the deletion from the store;
	// only propagation Orphan is done here.
	orphan, queued := orphaning((&client.DeleteOptions{}).ApplyOptions(opts)), len(cc.c.gc)
	var uid types.UID
	if orphan {
		uid = cc.c.storedUID(ctx, gvk, obj)
	}
	if gvk.GroupKind() == (schema.GroupKind{Kind: "Namespace"}) {
		if err := cc.c.deleteNamespace(ctx, obj, opts...); err != nil {
			return err
		}
	} else {
		if err := cc.c.inner.Delete(ctx, obj, opts...); err != nil {
			return err
		}
		if err := cc.c.afterDelete(ctx, gvk, obj.GetNamespace(), obj.GetName()); err != nil {
			return err
		}
	}
	if orphan {
		return cc.c.orphan(ctx, queued, []types.UID{uid})
	}
	return nil
}

// DeleteAllOf deletes the matching objects of obj's kind.
func (cc *clusterClient) DeleteAllOf(ctx context.Context, obj client.Object, opts ...client.DeleteAllOfOption) error {
	defer cc.lock()()
	gvk, err := cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	queued := len(cc.c.gc)
	if err := cc.c.inner.DeleteAllOf(ctx, obj, opts...); err != nil {
		return err
	}
	// The objects deleted are queued for the garbage collector (gc.go);
	// with propagation Orphan their dependents stay. (Objects held by
	// finalizers are only marked and are not orphaned here.)
	if o := (&client.DeleteAllOfOptions{}).ApplyOptions(opts); orphaning(&o.DeleteOptions) {
		if err := cc.c.orphan(ctx, queued, cc.c.queuedSince(queued)); err != nil {
			return err
		}
	}
	if gvk.GroupKind() == crdGroupKind {
		return cc.c.refreshCRDs(ctx)
	}
	return nil
}

// Status returns the writer of the status subresource.
func (cc *clusterClient) Status() client.SubResourceWriter {
	return &statusWriter{cc: cc, w: cc.c.inner.Status()}
}

// SubResource returns a client of the named subresource: the cluster
// answers TokenRequests and Gardener's AdminKubeconfigRequests itself (see
// requests.go); others have the fake client's semantics (e.g. scale and
// eviction).
func (cc *clusterClient) SubResource(name string) client.SubResourceClient {
	return &requestClient{SubResourceClient: cc.c.inner.SubResource(name), cc: cc, name: name}
}

// Scheme is the cluster's scheme: the built-in kinds and the custom kinds
// of the CRDs seen so far.
func (cc *clusterClient) Scheme() *runtime.Scheme { return cc.c.scheme }

// RESTMapper maps the built-in kinds and the kinds the cluster's CRDs serve.
func (cc *clusterClient) RESTMapper() meta.RESTMapper { return cc.c.mapper }

// GroupVersionKindFor returns the kind of obj.
func (cc *clusterClient) GroupVersionKindFor(obj runtime.Object) (schema.GroupVersionKind, error) {
	return apiutil.GVKForObject(obj, cc.c.scheme)
}

// IsObjectNamespaced reports whether obj's kind is namespaced; a kind the
// cluster does not serve is a NoKindMatchError, worded as controller-runtime's
// client words it (apiutil.IsGVKNamespaced: "failed to get restmapping: ...").
func (cc *clusterClient) IsObjectNamespaced(obj runtime.Object) (bool, error) {
	defer cc.lock()()
	gvk, err := cc.c.kindOf(obj)
	if meta.IsNoMatchError(err) {
		return false, fmt.Errorf("failed to get restmapping: %w", err)
	}
	if err != nil {
		return false, err
	}
	return cc.c.namespaced(gvk), nil
}

// CustomKinds returns the kinds of gv that the cluster's established CRDs
// serve, in no order: what a discovery of gv adds to the built-in kinds,
// known without reading the CRDs.
func (cc *clusterClient) CustomKinds(gv schema.GroupVersion) []string {
	defer cc.lock()()
	var out []string
	for gvk := range cc.c.served {
		if gvk.GroupVersion() == gv {
			out = append(out, gvk.Kind)
		}
	}
	return out
}

// CustomGroupVersions returns the group versions the cluster's established
// CRDs serve, in no order.
func (cc *clusterClient) CustomGroupVersions() []schema.GroupVersion {
	defer cc.lock()()
	seen := map[schema.GroupVersion]bool{}
	for gvk := range cc.c.served {
		seen[gvk.GroupVersion()] = true
	}
	return slices.Collect(maps.Keys(seen))
}

// MemoVersionSet returns what compute gives (a helm release's version set
// of the cluster's discovery), computing it again only once the kinds the
// cluster's CRDs serve have changed: the built-in ones follow from its
// Kubernetes version alone.
func (cc *clusterClient) MemoVersionSet(compute func() ([]string, error)) ([]string, error) {
	unlock := cc.lock()
	gen, set := cc.c.servedGen, cc.c.versionSet
	ok := set != nil && cc.c.versionSetGen == gen
	unlock()
	if ok {
		return slices.Clone(set), nil
	}
	set, err := compute()
	if err != nil {
		return nil, err
	}
	unlock = cc.lock()
	cc.c.versionSet, cc.c.versionSetGen = slices.Clone(set), gen
	unlock()
	return set, nil
}

// ServesGroupVersion reports whether the cluster serves any kind of gv, as
// its discovery answers /apis/GROUP/VERSION: a built-in version that its
// Kubernetes version serves (see groupVersionSpans), the
// Landscaper kinds on the simulation's own cluster, or a version a stored
// CRD serves.
func (cc *clusterClient) ServesGroupVersion(gv schema.GroupVersion) bool {
	defer cc.lock()()
	if servesGroupVersion(gv, cc.c.set.minor) {
		return true
	}
	if cc.c.own != nil && gv == lsv1alpha1.SchemeGroupVersion {
		return true
	}
	for gvk := range cc.c.served {
		if gvk.GroupVersion() == gv {
			return true
		}
	}
	return false
}

// statusWriter writes the status subresource; the fake controllers may
// overwrite what it writes, as real controllers would.
type statusWriter struct {
	cc *clusterClient
	w  client.SubResourceWriter
}

// Create creates a subresource (fake client semantics).
func (s *statusWriter) Create(ctx context.Context, obj client.Object, sub client.Object, opts ...client.SubResourceCreateOption) error {
	defer s.cc.lock()()
	if _, err := s.cc.begin(ctx, obj); err != nil {
		return err
	}
	return s.w.Create(ctx, obj, sub, opts...)
}

// Update writes obj's status.
func (s *statusWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	defer s.cc.lock()()
	gvk, err := s.cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	done := s.cc.c.tracker.writingStatus()
	err = s.w.Update(ctx, obj, opts...)
	done()
	if err != nil {
		return err
	}
	return s.cc.c.afterWrite(ctx, gvk, obj.GetNamespace(), obj.GetName())
}

// Patch patches obj's status.
func (s *statusWriter) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	defer s.cc.lock()()
	gvk, err := s.cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	done := s.cc.c.tracker.writingStatus()
	err = s.w.Patch(ctx, obj, patch, opts...)
	done()
	if err != nil {
		return err
	}
	return s.cc.c.afterWrite(ctx, gvk, obj.GetNamespace(), obj.GetName())
}

// Apply applies a status configuration (server-side apply).
func (s *statusWriter) Apply(ctx context.Context, ac runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	defer s.cc.lock()()
	u, err := applied(ac)
	if err != nil {
		return err
	}
	gvk, err := s.cc.begin(ctx, u)
	if err != nil {
		return err
	}
	done := s.cc.c.tracker.writingStatus()
	err = s.w.Apply(ctx, ac, opts...)
	done()
	if err != nil {
		return err
	}
	return s.cc.c.afterWrite(ctx, gvk, u.GetNamespace(), u.GetName())
}

// ServerVersion reports Options.Version (default KubernetesVersion), as
// discovery would; the helm deployer shows it to charts.
func (cc *clusterClient) ServerVersion() (*version.Info, error) {
	return &version.Info{GitVersion: cc.c.version(), Platform: "linux/amd64"}, nil
}

// version is the Kubernetes version the cluster reports.
func (c *Cluster) version() string {
	if v := c.set.opts.Version; v != "" {
		return v
	}
	return KubernetesVersion
}

// keepDeletion copies the deletionTimestamp and deletionGracePeriodSeconds
// of the stored object into obj, as the API server does on update ("an
// update can never remove/change a deletion timestamp"): an update of an
// object that is being deleted, sent without them, is no error. The caller
// holds the lock.
func (c *Cluster) keepDeletion(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object) {
	stored := &unstructured.Unstructured{}
	stored.SetGroupVersionKind(gvk)
	if err := c.inner.Get(ctx, client.ObjectKeyFromObject(obj), stored); err != nil {
		return // the update reports a missing object
	}
	if ts := stored.GetDeletionTimestamp(); ts != nil {
		obj.SetDeletionTimestamp(ts)
		if obj.GetDeletionGracePeriodSeconds() == nil {
			obj.SetDeletionGracePeriodSeconds(stored.GetDeletionGracePeriodSeconds())
		}
	}
}
