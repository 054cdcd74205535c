package simcluster

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterDefaultIngressClass creates a default IngressClass and an
// Ingress without a class on a real kube-apiserver (whose
// DefaultIngressClass admission plugin is on by default) and on a
// simulated cluster, and compares the Ingresses' ingressClassName after
// the creation and after an update that leaves the field out. The class
// is deleted again, so that the Ingresses of other tests on the shared
// cluster are not defaulted.
func TestRealClusterDefaultIngressClass(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	class := ingressClass("lscli-default-ingress-class-test", "true")
	ns := tc.Namespace(t)
	realDefaultClass(t, tc, ns, class, ingressManifest("", ""), "spec", "ingressClassName") // admitdefault_realcluster_test.go
	f := newFixture(t)
	f.create(class)
	write := func(c client.Client, namespace string, update bool) string {
		t.Helper()
		u := obj(t, ingressManifest("", ""))
		u.SetNamespace(namespace)
		if update {
			old := &unstructured.Unstructured{}
			old.SetGroupVersionKind(u.GroupVersionKind())
			if err := c.Get(ctx, client.ObjectKeyFromObject(u), old); err != nil {
				t.Fatal(err)
			}
			u.SetResourceVersion(old.GetResourceVersion())
			if err := c.Update(ctx, u); err != nil {
				t.Fatal(err)
			}
		} else if err := c.Create(ctx, u); err != nil {
			t.Fatal(err)
		}
		return storedString(t, c, u, "spec", "ingressClassName")
	}
	for _, step := range []struct {
		name   string
		update bool
	}{{"create", false}, {"update", true}} {
		real, sim := write(tc.Client, ns, step.update), write(f.c, "default", step.update)
		if real != sim {
			t.Errorf("%s: ingressClassName simulated %q, real %q", step.name, sim, real)
		} else {
			t.Logf("%s: ingressClassName %q", step.name, real)
		}
	}
}
