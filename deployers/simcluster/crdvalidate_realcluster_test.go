package simcluster

import (
	"context"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterCRDValidation creates each of crdCreateCases on a real
// kube-apiserver and on a simulated cluster and compares the outcome
// (kube-apiserver's Invalid error with its causes) and, for a CRD
// created, status.storedVersions.
func TestRealClusterCRDValidation(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	for name, manifest := range crdCreateCases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			real := outcome(tc.Client.Create(ctx, obj(t, manifest)))
			if real == "" {
				t.Cleanup(func() { _ = tc.Client.Delete(ctx, obj(t, manifest)) })
			}
			if sim := outcome(f.c.Create(ctx, obj(t, manifest))); sim != real {
				t.Fatalf("create\nsimulated: %s\nreal:      %s", sim, real)
			}
			if real != "" {
				return
			}
			crd := obj(t, manifest).GetName()
			if s, r := storedVersions(t, f.c, crd), storedVersions(t, tc.Client, crd); s != r {
				t.Errorf("status.storedVersions\nsimulated: %s\nreal:      %s", s, r)
			}
		})
	}
}

// TestRealClusterCRDUpdateValidation creates the CRD of each of
// crdUpdateCases on a real kube-apiserver and on a simulated cluster,
// updates it, and compares the outcome of the update and
// status.storedVersions after it.
func TestRealClusterCRDUpdateValidation(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	for name, tt := range crdUpdateCases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			if err := tc.Client.Create(ctx, obj(t, tt.create)); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = tc.Client.Delete(ctx, obj(t, tt.create)) })
			f.create(tt.create)
			crd := obj(t, tt.create).GetName()
			realEstablished(t, tc, crd)
			var real string
			_ = retry.RetryOnConflict(retry.DefaultRetry, func() error {
				err := updateCRD(t, tc.Client, tt.update)
				real = outcome(err)
				return err
			})
			sim := outcome(updateCRD(t, f.c, tt.update))
			if sim != real {
				t.Fatalf("update\nsimulated: %s\nreal:      %s", sim, real)
			}
			if s, r := storedVersions(t, f.c, crd), storedVersions(t, tc.Client, crd); s != r {
				t.Errorf("status.storedVersions\nsimulated: %s\nreal:      %s", s, r)
			}
		})
	}
}

// realEstablished waits until the real cluster's CRD name is Established,
// as a simulated cluster's is at once: the update validation keeps the
// scope and kind of an established CRD only.
func realEstablished(t *testing.T, tc *testcluster.Cluster, name string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := tc.Client.Get(ctx, client.ObjectKey{Name: name}, crd); err != nil {
			return false, nil
		}
		return established(crd), nil
	})
	if err != nil {
		t.Fatalf("CRD %s is not established on the real cluster: %v", name, err)
	}
}
