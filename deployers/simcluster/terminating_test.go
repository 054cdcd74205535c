package simcluster

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestUpdateKeepsDeletionTimestamp: an update of an object that is being
// deleted keeps its deletionTimestamp, as the API server's BeforeUpdate
// does, instead of failing because the sent object has none (the manifest
// deployer updates such an object with its manifest). An update that drops
// the last finalizer removes the object.
func TestUpdateKeepsDeletionTimestamp(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default","finalizers":["example.com/keep"]},"data":{"v":"1"}}`)
	f.clock.Step(time.Minute)
	if err := f.c.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "c"}}); err != nil {
		t.Fatal(err)
	}
	live := f.get("v1", "ConfigMap", "default", "c")
	u := obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default","finalizers":["example.com/keep"]},"data":{"v":"2"}}`)
	u.SetResourceVersion(live.GetResourceVersion())
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatalf("update of a terminating object: %v", err)
	}
	got := f.get("v1", "ConfigMap", "default", "c")
	if ts := got.GetDeletionTimestamp(); ts == nil || !ts.Time.Equal(epoch.Add(time.Minute)) {
		t.Errorf("deletionTimestamp = %v, want %v", ts, epoch.Add(time.Minute))
	}
	if v := got.Object["data"].(map[string]any)["v"]; v != "2" {
		t.Errorf("data.v = %v, want 2", v)
	}
	u = obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"v":"3"}}`)
	u.SetResourceVersion(got.GetResourceVersion())
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatalf("update without finalizers: %v", err)
	}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "c"}, &corev1.ConfigMap{}); !apierrors.IsNotFound(err) {
		t.Errorf("object after its last finalizer went: %v, want NotFound", err)
	}
}

// TestNamespaceTerminatesWhileContentHasFinalizers: a deleted Namespace
// whose objects are held by finalizers stays, Terminating, until the last
// of them is gone, as with the namespace controller; new objects in it are
// forbidden, as the NamespaceLifecycle admission forbids them.
func TestNamespaceTerminatesWhileContentHasFinalizers(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"app"}}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"held","namespace":"app","finalizers":["example.com/keep"]}}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"free","namespace":"app"}}`)
	if err := f.c.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app"}}); err != nil {
		t.Fatal(err)
	}
	ns := f.get("v1", "Namespace", "", "app")
	if ns.GetDeletionTimestamp() == nil {
		t.Errorf("namespace has no deletionTimestamp")
	}
	if phase, _, _ := unstructuredString(ns.Object, "status", "phase"); phase != "Terminating" {
		t.Errorf("namespace phase = %q, want Terminating", phase)
	}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "app", Name: "free"}, &corev1.ConfigMap{}); !apierrors.IsNotFound(err) {
		t.Errorf("ConfigMap free: %v, want NotFound", err)
	}
	held := f.get("v1", "ConfigMap", "app", "held")
	if held.GetDeletionTimestamp() == nil {
		t.Errorf("ConfigMap held has no deletionTimestamp")
	}
	err := f.c.Create(ctx, obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"new","namespace":"app"}}`))
	want := `configmaps "new" is forbidden: unable to create new content in namespace app because it is being terminated`
	if !apierrors.IsForbidden(err) || err.Error() != want {
		t.Errorf("create in a terminating namespace: %v, want Forbidden %q", err, want)
	}
	// A label on the namespace does not end its termination.
	ns.SetLabels(map[string]string{"a": "b"})
	ns.SetFinalizers(nil)
	if err := f.c.Update(ctx, ns); err != nil {
		t.Fatal(err)
	}
	f.get("v1", "Namespace", "", "app")
	held.SetFinalizers(nil)
	if err := f.c.Update(ctx, held); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(ctx, client.ObjectKey{Name: "app"}, &corev1.Namespace{}); !apierrors.IsNotFound(err) {
		t.Errorf("namespace after its last object went: %v, want NotFound", err)
	}
}

func unstructuredString(m map[string]any, path ...string) (string, bool, error) {
	return unstructured.NestedString(m, path...)
}
