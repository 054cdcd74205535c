package simcluster

import (
	"context"
	"testing"

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
	ns := tc.Namespace(t)
	realDefaultClass(t, tc, ns, class, pvcManifest(""), "spec", "storageClassName") // admitdefault_realcluster_test.go
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
			return storedString(t, c, u, "spec", "storageClassName")
		}
		real, sim := claimOf(tc.Client, ns), claimOf(f.c, "default")
		if real != sim {
			t.Errorf("%s: storageClassName simulated %q, real %q", tt.name, sim, real)
		} else {
			t.Logf("%s: storageClassName %q", tt.name, real)
		}
	}
}
