package simcluster

import (
	"context"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestHeldByFinalizers: a deleted ConfigMap that an operator's finalizer
// holds is held by it alone (the pvc-protection style finalizer of
// Kubernetes is left out); one that is not deleted, one deleted without
// finalizers (gone) and one only Kubernetes' finalizers hold are not.
func TestHeldByFinalizers(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: held, namespace: default, finalizers: [kubernetes.io/x, ceph.rook.io/disaster-protection]}}",
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: standing, namespace: default, finalizers: [ceph.rook.io/disaster-protection]}}",
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: plain, namespace: default}}",
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: kube, namespace: default, finalizers: [kubernetes.io/x]}}",
	)
	for _, name := range []string{"held", "plain", "kube"} {
		if err := f.c.Delete(ctx, f.get("v1", "ConfigMap", "default", name)); err != nil {
			t.Fatal(err)
		}
	}
	var refs []corev1.ObjectReference
	for _, name := range []string{"held", "standing", "plain", "kube", "missing"} {
		refs = append(refs, corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: name})
	}
	refs = append(refs, corev1.ObjectReference{APIVersion: "ceph.rook.io/v1", Kind: "CephCluster", Namespace: "default", Name: "unserved"})
	got, err := f.clusters.HeldByFinalizers(ctx, f.target, refs)
	if err != nil {
		t.Fatal(err)
	}
	want := []HeldObject{{Kind: "ConfigMap", Namespace: "default", Name: "held", Finalizers: []string{"ceph.rook.io/disaster-protection"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("HeldByFinalizers = %+v, want %+v", got, want)
	}
}
