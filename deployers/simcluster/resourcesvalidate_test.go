package simcluster

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// TestResourceRequestAboveLimit: a container whose request is above its
// limit is refused with kube-apiserver's 422 (KubeVirt's virt-operator
// requests 450Mi; a team's limit of 256Mi), on create and on update; a
// request at or below its limit passes.
func TestResourceRequestAboveLimit(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	ok := resourceWorkload("Deployment", "virt-operator", "resources: {requests: {cpu: 10m, memory: 450Mi}, limits: {memory: 450Mi}}")
	bad := resourceWorkload("Deployment", "virt-operator", "resources: {requests: {cpu: 10m, memory: 450Mi}, limits: {memory: 256Mi}}")
	const want = `Deployment.apps "virt-operator" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "450Mi": must be less than or equal to memory limit of 256Mi`
	err := f.c.Create(ctx, obj(t, bad))
	if !apierrors.IsInvalid(err) || err.Error() != want {
		t.Fatalf("create: got %v, want %s", err, want)
	}
	f.create(ok)
	u := f.get("apps/v1", "Deployment", "default", "virt-operator")
	n := obj(t, bad)
	n.SetResourceVersion(u.GetResourceVersion())
	if err := f.c.Update(ctx, n); !apierrors.IsInvalid(err) || err.Error() != want {
		t.Fatalf("update: got %v, want %s", err, want)
	}
}
