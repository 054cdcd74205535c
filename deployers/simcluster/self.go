package simcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/fakecluster"
)

// The cluster of selfConfig Targets (key SelfKey) is the simulation's own
// API server, where the Landscaper objects live, as a self Target reaches
// Landscaper's resource cluster. Objects of the kinds that server keeps
// (the Landscaper kinds and core/v1: Secrets, ConfigMaps, ServiceAccounts,
// ...) are read from and written to it, so the controllers see them and
// `lscli get` lists them; objects of other kinds (Deployments, RBAC, CRDs
// and custom resources) are kept beside it and saved with the simulated
// clusters. Unlike the other clusters, it does not keep Namespaces as
// containers: the API server does not (see package fakecluster).

// selfScheme returns a new scheme with the built-in kinds and the
// Landscaper kinds (CRDs add kinds to it).
func selfScheme() *runtime.Scheme {
	s := newScheme()
	if err := lsv1alpha1.AddToScheme(s); err != nil {
		panic(fmt.Sprintf("register landscaper v1alpha1: %v", err)) // static type tables: a bug
	}
	return s
}

// landscapeMapper maps the Landscaper kinds, which are all namespaced.
func landscapeMapper() meta.RESTMapper {
	m := meta.NewDefaultRESTMapper([]schema.GroupVersion{lsv1alpha1.SchemeGroupVersion})
	s := runtime.NewScheme()
	_ = lsv1alpha1.AddToScheme(s)
	for gvk := range s.AllKnownTypes() {
		if gvk.Group == lsv1alpha1.SchemeGroupVersion.Group && !isListKind(gvk) {
			m.Add(gvk, meta.RESTScopeNamespace)
		}
	}
	return m
}

// ownStatusKinds are the kinds of the own API server with a status
// subresource: those with a status field, as it treats them.
func (c *Cluster) ownStatusKinds() []client.Object {
	if c.own == nil {
		return nil
	}
	var out []client.Object
	for gvk, typ := range c.own.Scheme().AllKnownTypes() {
		if gvk.Group != lsv1alpha1.SchemeGroupVersion.Group || isListKind(gvk) {
			continue
		}
		if _, ok := typ.FieldByName("Status"); !ok {
			continue
		}
		if obj, ok := reflect.New(typ).Interface().(client.Object); ok {
			out = append(out, obj)
		}
	}
	slices.SortFunc(out, func(a, b client.Object) int {
		return compareStrings(reflect.TypeOf(a).String(), reflect.TypeOf(b).String())
	})
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// selfStore is the object store of the own cluster: the kinds the own API
// server keeps go to it, others to an in-memory tracker.
type selfStore struct {
	testing.ObjectTracker
	own *fakecluster.Cluster
	// kinds are the kinds of the own API server, by resource.
	kinds map[schema.GroupVersionResource]schema.GroupVersionKind
}

// newSelfStore returns the store of the own cluster over own.
func newSelfStore(scheme *runtime.Scheme, own *fakecluster.Cluster) *selfStore {
	s := &selfStore{ObjectTracker: testing.NewObjectTracker(scheme, serializer.NewCodecFactory(scheme).UniversalDecoder()),
		own: own, kinds: map[schema.GroupVersionResource]schema.GroupVersionKind{}}
	for gvk := range own.Scheme().AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || isListKind(gvk) {
			continue
		}
		gvr, _ := meta.UnsafeGuessKindToResource(gvk)
		s.kinds[gvr] = gvk
	}
	return s
}

// owns reports whether the own API server keeps objects of gvr.
func (s *selfStore) owns(gvr schema.GroupVersionResource) (schema.GroupVersionKind, bool) {
	gvk, ok := s.kinds[gvr]
	return gvk, ok
}

// Get reads an object.
func (s *selfStore) Get(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.GetOptions) (runtime.Object, error) {
	gvk, ok := s.owns(gvr)
	if !ok {
		return s.ObjectTracker.Get(gvr, ns, name, opts...)
	}
	obj, err := s.newObject(gvk)
	if err != nil {
		return nil, err
	}
	if err := s.own.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, obj); err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return obj, nil
}

// newObject returns an empty object of the own API server's kind gvk.
func (s *selfStore) newObject(gvk schema.GroupVersionKind) (fakecluster.Object, error) {
	ro, err := s.own.Scheme().New(gvk)
	if err != nil {
		return nil, err
	}
	obj, ok := ro.(fakecluster.Object)
	if !ok {
		return nil, fmt.Errorf("%s is not an object", gvk)
	}
	return obj, nil
}

// List lists objects of a kind.
func (s *selfStore) List(gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, ns string, opts ...metav1.ListOptions) (runtime.Object, error) {
	if _, ok := s.owns(gvr); !ok {
		return s.ObjectTracker.List(gvr, gvk, ns, opts...)
	}
	ro, err := s.own.Scheme().New(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err != nil {
		return nil, err
	}
	list, ok := ro.(fakecluster.ObjectList)
	if !ok {
		return nil, fmt.Errorf("%s is not a list", gvk)
	}
	if err := s.own.List(context.Background(), list, fakecluster.ListOptions{Namespace: ns}); err != nil {
		return nil, err
	}
	return list, nil
}

// Add stores obj as it is.
func (s *selfStore) Add(obj runtime.Object) error {
	gvk := obj.GetObjectKind().GroupVersionKind()
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	if _, ok := s.owns(gvr); !ok {
		return s.ObjectTracker.Add(obj)
	}
	return s.Create(gvr, obj, "")
}

// Create creates an object.
func (s *selfStore) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	if _, ok := s.owns(gvr); !ok {
		return s.ObjectTracker.Create(gvr, obj, ns, opts...)
	}
	if len(opts) > 0 && slices.Contains(opts[0].DryRun, metav1.DryRunAll) {
		return nil
	}
	o, ok := obj.(fakecluster.Object)
	if !ok {
		return fmt.Errorf("%T is not an object", obj)
	}
	o = o.DeepCopyObject().(fakecluster.Object)
	o.SetResourceVersion("")
	return s.own.Create(context.Background(), o)
}

// Update replaces an object: its spec and metadata, then its status. A
// deletionTimestamp that the update sets is a deletion.
func (s *selfStore) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	if _, ok := s.owns(gvr); !ok {
		return s.ObjectTracker.Update(gvr, obj, ns, opts...)
	}
	if len(opts) > 0 && slices.Contains(opts[0].DryRun, metav1.DryRunAll) {
		return nil
	}
	return s.write(gvr, obj)
}

// Patch stores the result of a patch, as Update does.
func (s *selfStore) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	if _, ok := s.owns(gvr); !ok {
		return s.ObjectTracker.Patch(gvr, obj, ns, opts...)
	}
	if len(opts) > 0 && slices.Contains(opts[0].DryRun, metav1.DryRunAll) {
		return nil
	}
	return s.write(gvr, obj)
}

// write stores obj over the stored object of its kind, namespace and name.
func (s *selfStore) write(gvr schema.GroupVersionResource, obj runtime.Object) error {
	next, ok := obj.(fakecluster.Object)
	if !ok {
		return fmt.Errorf("%T is not an object", obj)
	}
	ctx := context.Background()
	storedObj, err := s.Get(gvr, next.GetNamespace(), next.GetName())
	if err != nil {
		return err
	}
	stored := storedObj.(fakecluster.Object)
	next = next.DeepCopyObject().(fakecluster.Object)
	next.SetResourceVersion(stored.GetResourceVersion())
	if stored.GetDeletionTimestamp() == nil && next.GetDeletionTimestamp() != nil {
		return s.own.Delete(ctx, stored) // the client's Delete of an object with finalizers
	}
	status := statusOf(next)
	if err := s.own.Update(ctx, next); err != nil {
		return err
	}
	if status == nil || string(status) == string(statusOf(stored)) {
		return nil
	}
	if err := s.own.Get(ctx, types.NamespacedName{Namespace: next.GetNamespace(), Name: next.GetName()}, stored); err != nil {
		return client.IgnoreNotFound(err)
	}
	if err := json.Unmarshal(status, stored); err != nil {
		return err
	}
	return s.own.UpdateStatus(ctx, stored)
}

// statusOf is {"status": ...} of obj as JSON, or nil when it has none.
func statusOf(obj runtime.Object) []byte {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil || m["status"] == nil {
		return nil
	}
	data, err := json.Marshal(map[string]any{"status": m["status"]})
	if err != nil {
		return nil
	}
	return data
}

// Apply is done by the tracker above the store, which creates or updates.
func (s *selfStore) Apply(gvr schema.GroupVersionResource, ac runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	if _, ok := s.owns(gvr); !ok {
		return s.ObjectTracker.Apply(gvr, ac, ns, opts...)
	}
	return apierrors.NewMethodNotSupported(gvr.GroupResource(), "apply")
}

// Delete deletes an object. The client deletes an object marked for
// deletion whose last finalizer it removes: that is an update without
// finalizers on the own API server.
func (s *selfStore) Delete(gvr schema.GroupVersionResource, ns, name string, opts ...metav1.DeleteOptions) error {
	if _, ok := s.owns(gvr); !ok {
		return s.ObjectTracker.Delete(gvr, ns, name, opts...)
	}
	storedObj, err := s.Get(gvr, ns, name)
	if err != nil {
		return err
	}
	stored := storedObj.(fakecluster.Object)
	ctx := context.Background()
	if stored.GetDeletionTimestamp() != nil && len(stored.GetFinalizers()) > 0 {
		stored.SetFinalizers(nil)
		return s.own.Update(ctx, stored)
	}
	return s.own.Delete(ctx, stored)
}

// Watch is not supported: nothing in lscli watches a simulated cluster.
func (s *selfStore) Watch(gvr schema.GroupVersionResource, ns string, opts ...metav1.ListOptions) (watch.Interface, error) {
	if _, ok := s.owns(gvr); !ok {
		return s.ObjectTracker.Watch(gvr, ns, opts...)
	}
	return nil, apierrors.NewMethodNotSupported(gvr.GroupResource(), "watch")
}

// ownObjects returns the objects of the own API server, for Objects.
func (c *Cluster) ownObjects() []runtime.Object {
	if c.own == nil {
		return nil
	}
	objs := c.own.Objects()
	out := make([]runtime.Object, 0, len(objs))
	for _, o := range objs {
		out = append(out, o)
	}
	return out
}

// keptByOwn reports whether the own API server keeps obj (so it is not saved
// with the simulated clusters).
func (c *Cluster) keptByOwn(obj runtime.Object) bool {
	return c.own != nil && c.own.Scheme().Recognizes(obj.GetObjectKind().GroupVersionKind())
}
