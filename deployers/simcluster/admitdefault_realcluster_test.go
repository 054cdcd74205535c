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

// realDefaultClass creates the default class classManifest on the real
// test cluster, to be deleted when the test ends (so that the objects of
// other tests on the shared cluster are not defaulted), and waits until
// kube-apiserver's defaulting admission plugin, which reads classes
// through an informer, is in effect: a dry-run create of probeManifest in
// namespace ns gets the class's name at field. It returns the class.
func realDefaultClass(t *testing.T, tc *testcluster.Cluster, ns, classManifest, probeManifest string, field ...string) *unstructured.Unstructured {
	t.Helper()
	ctx := context.Background()
	class := obj(t, classManifest)
	if err := tc.Client.Create(ctx, class); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tc.Client.Delete(context.Background(), class) })
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		probe := obj(t, probeManifest)
		probe.SetNamespace(ns)
		if err := tc.Client.Create(ctx, probe, client.DryRunAll); err != nil {
			return false, err
		}
		got, _, _ := unstructured.NestedString(probe.Object, field...)
		return got == class.GetName(), nil
	}); err != nil {
		t.Fatalf("the default %s is not in effect on the real cluster: %v", class.GetKind(), err)
	}
	return class
}

// storedString is the string at field of the object u names as c stores
// it, "<unset>" when it has none.
func storedString(t *testing.T, c client.Client, u *unstructured.Unstructured, field ...string) string {
	t.Helper()
	got := &unstructured.Unstructured{}
	got.SetGroupVersionKind(u.GroupVersionKind())
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(u), got); err != nil {
		t.Fatal(err)
	}
	s, set, _ := unstructured.NestedString(got.Object, field...)
	if !set {
		return "<unset>"
	}
	return s
}
