package simcluster

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterObjectSize creates objectSizeCases on a real kube-apiserver
// (etcd with its default --max-request-bytes) and on a simulated cluster
// and compares the answers.
func TestRealClusterObjectSize(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	for _, c := range objectSizeCases {
		f := newFixture(t)
		sim, real := obj(t, c.crd()), obj(t, c.crd())
		simErr, realErr := outcome(f.c.Create(ctx, sim)), outcome(tc.Client.Create(ctx, real))
		realDeleted(t, tc, real) // the next case creates a CRD of the same name
		if simErr != realErr {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s", c.name, simErr, realErr)
		} else {
			t.Logf("%s: %q", c.name, realErr)
		}
	}
	ns := tc.Namespace(t)
	for _, c := range configMapSizes {
		f := newFixture(t)
		sim := outcome(f.c.Create(ctx, bigConfigMap(t, "default", c.size)))
		real := outcome(tc.Client.Create(ctx, bigConfigMap(t, ns, c.size)))
		if sim != real {
			t.Errorf("ConfigMap of %d bytes:\nsimulated: %s\nreal:      %s", c.size, sim, real)
		}
	}
}

// realDeleted deletes o on the real cluster, if it is there, and waits
// until it is gone: a CRD is deleted only once its custom resources are
// cleaned up (the customresourcecleanup finalizer), and until then a CRD
// of the same name cannot be created ("object is being deleted").
func realDeleted(t *testing.T, tc *testcluster.Cluster, o *unstructured.Unstructured) {
	t.Helper()
	ctx := context.Background()
	if err := tc.Client.Delete(ctx, o); apierrors.IsNotFound(err) {
		return
	}
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(o.GroupVersionKind())
		return apierrors.IsNotFound(tc.Client.Get(ctx, client.ObjectKeyFromObject(o), got)), nil
	})
	if err != nil {
		t.Fatalf("%s %s is not gone from the real cluster: %v", o.GetKind(), o.GetName(), err)
	}
}
