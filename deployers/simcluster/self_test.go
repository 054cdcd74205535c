package simcluster

import (
	"context"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
)

func TestSelfTarget(t *testing.T) {
	ctx := context.Background()
	own := fakecluster.New(fakecluster.Options{})
	clusters := New(Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1), Landscape: own})
	target := newTarget("example", "self", map[string]any{"selfConfig": map[string]any{"serviceAccount": map[string]any{"name": "sa"}}}, nil)
	c, err := clusters.ForTarget(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, clusters: clusters, target: target, c: c}
	// A ConfigMap and an Installation go to the own API server, in a
	// namespace that exists nowhere as an object; a Deployment stays in the
	// simulated part.
	f.create(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"example","finalizers":["example.com/keep"]},"data":{"a":"1"}}`,
		`{"apiVersion":"landscaper.gardener.cloud/v1alpha1","kind":"Installation","metadata":{"name":"i","namespace":"example"},"spec":{"blueprint":{"ref":{"resourceName":"x"}}}}`,
		strings.Replace(deploymentManifest, "namespace: default", "namespace: example", 1))
	cm := &corev1.ConfigMap{}
	if err := own.Get(ctx, types.NamespacedName{Namespace: "example", Name: "c"}, cm); err != nil || cm.Data["a"] != "1" {
		t.Fatalf("ConfigMap on the own API server: %v, %v", err, cm.Data)
	}
	inst := &lsv1alpha1.Installation{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "example", Name: "i"}, inst); err != nil {
		t.Fatal(err)
	}
	inst.Status.InstallationPhase = lsv1alpha1.InstallationPhases.Succeeded
	if err := c.Status().Update(ctx, inst); err != nil {
		t.Fatal(err)
	}
	stored := &lsv1alpha1.Installation{}
	if err := own.Get(ctx, types.NamespacedName{Namespace: "example", Name: "i"}, stored); err != nil || stored.Status.InstallationPhase != "Succeeded" {
		t.Errorf("Installation status on the own API server: %v, phase %q", err, stored.Status.InstallationPhase)
	}
	saved, err := clusters.Save()
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) != 1 || !strings.Contains(string(saved[0].Object), `"kind":"Deployment"`) || saved[0].Cluster != SelfKey {
		t.Errorf("saved %d objects (%v), want the Deployment only", len(saved), saved)
	}
	// Deleting the ConfigMap marks it; removing its finalizer removes it.
	if err := c.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "c"}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "example", Name: "c"}, cm); err != nil || cm.DeletionTimestamp == nil {
		t.Fatalf("ConfigMap after delete: %v, deletionTimestamp %v", err, cm.DeletionTimestamp)
	}
	cm.Finalizers = nil
	if err := c.Update(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if err := own.Get(ctx, types.NamespacedName{Namespace: "example", Name: "c"}, &corev1.ConfigMap{}); !apierrors.IsNotFound(err) {
		t.Errorf("ConfigMap after its finalizer went: %v, want NotFound", err)
	}
}
