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
	ic := obj(t, class)
	if err := tc.Client.Create(ctx, ic); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tc.Client.Delete(context.Background(), ic) })
	ns := tc.Namespace(t)
	// The admission plugin reads IngressClasses through an informer: wait
	// until a dry-run Ingress gets the class, so that it is in effect.
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		probe := obj(t, ingressManifest("", ""))
		probe.SetNamespace(ns)
		if err := tc.Client.Create(ctx, probe, client.DryRunAll); err != nil {
			return false, err
		}
		name, _, _ := unstructured.NestedString(probe.Object, "spec", "ingressClassName")
		return name == ic.GetName(), nil
	}); err != nil {
		t.Fatalf("the default IngressClass is not in effect on the real cluster: %v", err)
	}
	f := newFixture(t)
	f.create(class)
	classOf := func(c client.Client, u *unstructured.Unstructured) string {
		t.Helper()
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(u.GroupVersionKind())
		if err := c.Get(ctx, client.ObjectKeyFromObject(u), got); err != nil {
			t.Fatal(err)
		}
		name, set, _ := unstructured.NestedString(got.Object, "spec", "ingressClassName")
		if !set {
			return "<unset>"
		}
		return name
	}
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
		return classOf(c, u)
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
