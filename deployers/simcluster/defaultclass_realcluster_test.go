package simcluster

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterDefaultStorageClass creates a default StorageClass and a
// claim without a class on a real kube-apiserver (whose DefaultStorageClass
// admission plugin is on by default) and on a simulated cluster, and
// compares the claims' storageClassName; a claim that asks for "" keeps
// it on both. The class is deleted again, so that the claims of other
// tests on the shared cluster are not defaulted.
func TestRealClusterDefaultStorageClass(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	class := storageClass("lscli-default-class-test", "Immediate", true)
	sc := obj(t, class)
	if err := tc.Client.Create(ctx, sc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tc.Client.Delete(context.Background(), sc) })
	ns := tc.Namespace(t)
	// The admission plugin reads StorageClasses through an informer: wait
	// until a dry-run claim gets the class, so that it is in effect.
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		probe := obj(t, pvcManifest(""))
		probe.SetNamespace(ns)
		if err := tc.Client.Create(ctx, probe, client.DryRunAll); err != nil {
			return false, err
		}
		class, _, _ := unstructured.NestedString(probe.Object, "spec", "storageClassName")
		return class == sc.GetName(), nil
	}); err != nil {
		t.Fatalf("the default StorageClass is not in effect on the real cluster: %v", err)
	}
	f := newFixture(t)
	f.create(class)
	for _, tt := range []struct{ name, extra string }{{"none", ""}, {"empty", ", storageClassName: \"\""}} {
		claimOf := func(c client.Client, namespace string) string {
			t.Helper()
			u := obj(t, pvcManifest(tt.extra))
			u.SetName("data-" + tt.name)
			u.SetNamespace(namespace)
			if err := c.Create(ctx, u); err != nil {
				t.Fatal(err)
			}
			got := &unstructured.Unstructured{}
			got.SetGroupVersionKind(u.GroupVersionKind())
			if err := c.Get(ctx, client.ObjectKeyFromObject(u), got); err != nil {
				t.Fatal(err)
			}
			class, set, _ := unstructured.NestedString(got.Object, "spec", "storageClassName")
			if !set {
				return "<unset>"
			}
			return class
		}
		real, sim := claimOf(tc.Client, ns), claimOf(f.c, "default")
		if real != sim {
			t.Errorf("%s: storageClassName simulated %q, real %q", tt.name, sim, real)
		} else {
			t.Logf("%s: storageClassName %q", tt.name, real)
		}
	}
}
