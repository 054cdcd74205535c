package simcluster

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestApplyKindWithoutStatus: a NetworkPolicy has no status in
// networking.k8s.io/v1 (its Status field was removed in Kubernetes v1.28),
// and kube-apiserver takes a server-side apply of one, create and update,
// as helm's releases of gardener's charts do.
func TestApplyKindWithoutStatus(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"app"}}`)
	np := `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: allow-egress, namespace: app}
spec:
  podSelector: {matchLabels: {app: gardener}}
  egress:
  - {}
  policyTypes: [%s]
`
	for _, types := range []string{"Egress", "Egress, Ingress"} {
		u := obj(t, fmt.Sprintf(np, types))
		if err := f.c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("helm"), client.ForceOwnership); err != nil {
			t.Fatalf("apply with policyTypes [%s]: %v", types, err)
		}
	}
	got := f.get("networking.k8s.io/v1", "NetworkPolicy", "app", "allow-egress")
	if pt, _, _ := unstructured.NestedStringSlice(got.Object, "spec", "policyTypes"); len(pt) != 2 {
		t.Errorf("policyTypes = %v, want [Egress Ingress]", pt)
	}
	if _, ok := got.Object["status"]; ok {
		t.Errorf("the NetworkPolicy has a status: %v", got.Object["status"])
	}
}

// TestApplyCreateOfCustomResourceHasNoStatus: a server-side apply that
// creates a custom resource whose CRD has the status subresource stores it
// without status, as kube-apiserver's customResourceStrategy.PrepareForCreate
// deletes the key (apiextensions-apiserver pkg/registry/customresource
// strategy.go), not with "status": null. helm's releases create custom
// resources so (podinfo's cert-manager Certificate).
func TestApplyCreateOfCustomResourceHasNoStatus(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(crdManifest)
	u := obj(t, widgetManifest)
	if err := f.c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("helm"), client.ForceOwnership); err != nil {
		t.Fatalf("apply: %v", err)
	}
	got := f.get("example.com/v1", "Widget", "default", "w")
	if s, ok := got.Object["status"]; ok {
		t.Errorf("the Widget has a status: %#v, want none", s)
	}
}
