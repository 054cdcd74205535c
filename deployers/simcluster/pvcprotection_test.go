package simcluster

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestPVCProtectionFinalizerGoesWithTheLastUser: a deleted claim held by
// kubernetes.io/pvc-protection stays Terminating while a workload makes pods
// that use it, and goes when the last of them is deleted, as
// kube-controller-manager's pvc-protection controller removes the finalizer
// (grafana's chart sets it on its claim). Other finalizers still hold it.
func TestPVCProtectionFinalizerGoesWithTheLastUser(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"default","finalizers":["kubernetes.io/pvc-protection"]},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`,
		`{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"kept","namespace":"default","finalizers":["kubernetes.io/pvc-protection","example.com/keep"]},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`,
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}],"volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"data"}}]}}}}`)
	for _, name := range []string{"data", "kept"} {
		if err := f.c.Delete(ctx, &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := f.get("v1", "PersistentVolumeClaim", "default", "data"); got.GetDeletionTimestamp() == nil {
		t.Fatalf("claim in use: deletionTimestamp unset, want it Terminating")
	}
	if err := f.c.Delete(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"}}); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "data"}, &corev1.PersistentVolumeClaim{}); !apierrors.IsNotFound(err) {
		t.Errorf("claim after its last user went: %v, want NotFound", err)
	}
	got := f.get("v1", "PersistentVolumeClaim", "default", "kept")
	if fs := got.GetFinalizers(); len(fs) != 1 || fs[0] != "example.com/keep" {
		t.Errorf("finalizers of the claim another finalizer holds = %v, want [example.com/keep]", fs)
	}
}
