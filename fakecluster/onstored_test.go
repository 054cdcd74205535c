package fakecluster_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// TestOnStoredGetsEveryStoredVersion checks that OnStored's function gets
// the stored object itself after a create, an update and a deletion, and
// nothing after it is removed.
func TestOnStoredGetsEveryStoredVersion(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	var got []fakecluster.Object
	c.OnStored(func(obj fakecluster.Object) { got = append(got, obj) })
	key := types.NamespacedName{Namespace: "default", Name: "cm"}
	stored := func() fakecluster.Object {
		obj, err := c.GetShared(ctx, key, &corev1.ConfigMap{})
		if err != nil {
			t.Fatal(err)
		}
		return obj
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cm", Finalizers: []string{"keep"}}}
	if err := c.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != stored() {
		t.Fatalf("after create: got %d objects, want the stored one", len(got))
	}
	cm.Data = map[string]string{"a": "b"}
	if err := c.Update(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1] != stored() {
		t.Fatalf("after update: got %d objects, want the stored one", len(got))
	}
	if err := c.Delete(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[2] != stored() || got[2].GetDeletionTimestamp() == nil {
		t.Fatalf("after delete with a finalizer: got %d objects, want the stored one marked for deletion", len(got))
	}
	c.OnStored(nil)
	cm = stored().DeepCopyObject().(*corev1.ConfigMap)
	cm.Finalizers = nil
	if err := c.Update(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("after OnStored(nil): got %d objects, want 3", len(got))
	}
}
