package fakecluster

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// withMutationDetector runs f on a cluster that detects mutations.
func withMutationDetector(t *testing.T, f func(c *Cluster)) {
	t.Helper()
	was := DetectMutations
	DetectMutations = true
	defer func() { DetectMutations = was }()
	f(New(Options{}))
}

// mustPanic runs f and returns what it panicked with, failing the test when
// it did not panic.
func mustPanic(t *testing.T, f func()) (msg string) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("no panic")
		}
		msg, _ = r.(string)
	}()
	f()
	return ""
}

// TestMutationDetectorSeesChangesInPlace: a reader that changes a shared
// object is caught when the object is next replaced, removed or handed out.
func TestMutationDetectorSeesChangesInPlace(t *testing.T) {
	ctx := context.Background()
	key := types.NamespacedName{Namespace: "ns", Name: "a"}
	create := func(t *testing.T, c *Cluster) *lsv1alpha1.DataObject {
		t.Helper()
		obj := &lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns", Labels: map[string]string{"k": "v"}}}
		if err := c.Create(ctx, obj); err != nil {
			t.Fatal(err)
		}
		return obj
	}
	changeShared := func(t *testing.T, c *Cluster) {
		t.Helper()
		shared := &lsv1alpha1.DataObject{}
		if err := c.GetUnsafe(ctx, key, shared); err != nil {
			t.Fatal(err)
		}
		shared.Labels["k"] = "changed" // the map is the stored object's
	}
	cases := map[string]func(t *testing.T, c *Cluster, obj *lsv1alpha1.DataObject){
		"handed out": func(t *testing.T, c *Cluster, _ *lsv1alpha1.DataObject) { c.SharedObjects() },
		"replaced": func(t *testing.T, c *Cluster, obj *lsv1alpha1.DataObject) {
			obj.Data = lsv1alpha1.NewAnyJSON([]byte(`{"x":1}`))
			_ = c.Update(ctx, obj)
		},
		"removed": func(t *testing.T, c *Cluster, obj *lsv1alpha1.DataObject) { _ = c.Delete(ctx, obj) },
	}
	for name, then := range cases {
		t.Run(name, func(t *testing.T) {
			withMutationDetector(t, func(c *Cluster) {
				obj := create(t, c)
				changeShared(t, c)
				msg := mustPanic(t, func() { then(t, c, obj) })
				if !strings.Contains(msg, "DataObject ns/a was changed in place") {
					t.Errorf("panic %q does not name the object", msg)
				}
			})
		})
	}
}

// TestMutationDetectorAcceptsWrites: the API server's own writes, and
// changes to the copies it hands out, are no mutations.
func TestMutationDetectorAcceptsWrites(t *testing.T) {
	ctx := context.Background()
	withMutationDetector(t, func(c *Cluster) {
		inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "i", Namespace: "ns", Finalizers: []string{"f"}}}
		if err := c.Create(ctx, inst); err != nil {
			t.Fatal(err)
		}
		inst.Labels = map[string]string{"k": "v"}
		if err := c.Update(ctx, inst); err != nil {
			t.Fatal(err)
		}
		inst.Status.InstallationPhase = lsv1alpha1.InstallationPhases.Progressing
		if err := c.UpdateStatus(ctx, inst); err != nil {
			t.Fatal(err)
		}
		got := &lsv1alpha1.Installation{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "i"}, got); err != nil {
			t.Fatal(err)
		}
		got.Labels["k"] = "mine" // a copy
		list := &lsv1alpha1.InstallationList{}
		if err := c.List(ctx, list, ListOptions{}); err != nil {
			t.Fatal(err)
		}
		list.Items[0].Labels["k"] = "mine too"
		if err := c.Delete(ctx, inst); err != nil { // marks it: it has a finalizer
			t.Fatal(err)
		}
		if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "i"}, got); err != nil {
			t.Fatal(err)
		}
		got.Finalizers = nil
		if err := c.Update(ctx, got); err != nil { // removes it
			t.Fatal(err)
		}
		c.SharedObjects()
		c.Objects()
	})
}
