package simcluster

import (
	"context"
	"testing"

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
		_ = tc.Client.Delete(ctx, real)
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
