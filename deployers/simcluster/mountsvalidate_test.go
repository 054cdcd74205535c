package simcluster

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// TestBidirectionalMountNeedsPrivileged: Longhorn's longhorn-manager
// DaemonSet mounts /var/lib/longhorn with Bidirectional propagation; the
// container runs privileged, and is accepted; without privileged, as
// kube-apiserver does, the DaemonSet is refused with a 422 on create and
// on update. A mount of a volume the pod lacks is refused too.
func TestBidirectionalMountNeedsPrivileged(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	ok := mountWorkload("DaemonSet", "longhorn-manager", "securityContext: {privileged: true}", "mountPropagation: Bidirectional")
	bad := mountWorkload("DaemonSet", "longhorn-manager", "", "mountPropagation: Bidirectional")
	const want = `DaemonSet.apps "longhorn-manager" is invalid: spec.template.spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers`
	err := f.c.Create(ctx, obj(t, bad))
	if !apierrors.IsInvalid(err) || err.Error() != want {
		t.Fatalf("create: got %v, want %s", err, want)
	}
	f.create(ok)
	u := f.get("apps/v1", "DaemonSet", "default", "longhorn-manager")
	n := obj(t, bad)
	n.SetResourceVersion(u.GetResourceVersion())
	if err := f.c.Update(ctx, n); !apierrors.IsInvalid(err) || err.Error() != want {
		t.Fatalf("update: got %v, want %s", err, want)
	}
	const wantMissing = `Deployment.apps "f" is invalid: spec.template.spec.containers[0].volumeMounts[1].name: Not found: "other"`
	if err := f.c.Create(ctx, obj(t, mountWorkload("Deployment", "f", "", "name: other"))); !apierrors.IsInvalid(err) || err.Error() != wantMissing {
		t.Fatalf("missing volume: got %v, want %s", err, wantMissing)
	}
}
