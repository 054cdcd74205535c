package simcluster

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
