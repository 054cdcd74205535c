package simcluster

import (
	"context"
	"testing"
)

// TestClaimPending: a lone claim of a WaitForFirstConsumer class stays
// Pending waiting for its first consumer, one of a missing class for the
// class; a bound claim and one that does not exist have no reason.
func TestClaimPending(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(wffcClass, pvcManifest(", storageClassName: local"))
	why, class, err := f.clusters.ClaimPending(ctx, f.target, "default", "data")
	if err != nil || why != "waiting for first consumer to be created before binding" || class != "local" {
		t.Errorf("ClaimPending = %q, %q, %v; want the first consumer's wait, class local", why, class, err)
	}
	if why, _, err := f.clusters.ClaimPending(ctx, f.target, "default", "none"); why != "" || err != nil {
		t.Errorf("missing claim: ClaimPending = %q, %v; want none", why, err)
	}

	g := newFixture(t)
	g.create(standardClass, pvcManifest(", storageClassName: fast"))
	if why, _, _ := g.clusters.ClaimPending(ctx, g.target, "default", "data"); why != `storageclass.storage.k8s.io "fast" not found` {
		t.Errorf("missing class: ClaimPending = %q", why)
	}

	h := newFixture(t)
	h.create(standardClass, pvcManifest(", storageClassName: standard"))
	if why, _, _ := h.clusters.ClaimPending(ctx, h.target, "default", "data"); why != "" {
		t.Errorf("bound claim: ClaimPending = %q, want none", why)
	}
}
