package simcluster

import (
	"context"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
)

func TestSeed(t *testing.T) {
	ctx := context.Background()
	// The custom resource and its namespace come before the CRD in the file:
	// CRDs go first, then Namespaces, then the rest.
	files := []SeedFile{{Name: "seed.yaml", Data: []byte(widgetManifest + "\n---\n# only a comment\n---\n" +
		`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team"}}` + "\n---\n" + crdManifest)}}
	seed, err := ParseSeed(SeedConfig{Target: "example/cluster", Files: []string{"seed.yaml"}}, files)
	if err != nil {
		t.Fatal(err)
	}
	store := fakecluster.New(fakecluster.Options{})
	target := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "cluster"}}
	other := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "other"}}
	for _, tg := range []*lsv1alpha1.Target{target, other} {
		if err := store.Create(ctx, tg.DeepCopy()); err != nil {
			t.Fatal(err)
		}
	}
	clusters := New(Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1), Seeds: []Seed{seed}, Landscape: store})
	c, err := clusters.ForTarget(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	w := &unstructured.Unstructured{}
	w.SetAPIVersion("example.com/v1")
	w.SetKind("Widget")
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "w"}, w); err != nil {
		t.Errorf("seeded Widget: %v", err)
	}
	c2, err := clusters.ForTarget(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	if err := c2.Get(ctx, client.ObjectKey{Namespace: "default", Name: "w"}, w); err == nil {
		t.Errorf("the seed reached the cluster of another Target")
	}
}
