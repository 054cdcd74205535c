package simcluster

import (
	"context"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
)

// TestCustomResourceStatusOnWrites: a custom resource whose CRD declares
// the status subresource is created without the client's status and keeps
// its stored status on update and patch; one whose CRD does not stores
// what the client sends (TestRealClusterStatusOnWrites compares the
// built-in kinds with a real kube-apiserver).
func TestCustomResourceStatusOnWrites(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, crd string
		want      [3]string // after create, status write, update
	}{
		{"status subresource", crdManifest, [3]string{"", "green", "green"}},
		{"no status subresource", strings.Replace(crdManifest, "subresources: {status: {}}", "subresources: {}", 1),
			[3]string{"sent", "green", "updated"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.create(tc.crd)
			w := obj(t, widgetManifest)
			_ = unstructured.SetNestedField(w.Object, "sent", "status", "color")
			if err := f.c.Create(ctx, w); err != nil {
				t.Fatal(err)
			}
			color := func() string {
				c, _, _ := unstructured.NestedString(f.get("example.com/v1", "Widget", "default", "w").Object, "status", "color")
				return c
			}
			if got := color(); got != tc.want[0] {
				t.Errorf("after create: status.color = %q, want %q", got, tc.want[0])
			}
			patch := client.RawPatch(types.MergePatchType, []byte(`{"status":{"color":"green"}}`))
			var err error
			if tc.name == "status subresource" {
				err = f.c.Status().Patch(ctx, obj(t, widgetManifest), patch)
			} else {
				err = f.c.Patch(ctx, obj(t, widgetManifest), patch)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := color(); got != tc.want[1] {
				t.Errorf("after the status write: status.color = %q, want %q", got, tc.want[1])
			}
			u := f.get("example.com/v1", "Widget", "default", "w")
			_ = unstructured.SetNestedField(u.Object, "updated", "status", "color")
			if err := f.c.Update(ctx, u); err != nil {
				t.Fatal(err)
			}
			if got := color(); got != tc.want[2] {
				t.Errorf("after update: status.color = %q, want %q", got, tc.want[2])
			}
		})
	}
}

// TestSeedKeepsStatus: a seeded object keeps the status it is seeded with,
// as the controller a seed stands for left it, though a client's create
// drops it.
func TestSeedKeepsStatus(t *testing.T) {
	ctx := context.Background()
	files := []SeedFile{{Name: "seed.yaml", Data: []byte(crdManifest + "\n---\n" + widgetManifest + "status: {color: seeded}\n")}}
	seed, err := ParseSeed(SeedConfig{Target: "example/cluster", Files: []string{"seed.yaml"}}, files)
	if err != nil {
		t.Fatal(err)
	}
	store := fakecluster.New(fakecluster.Options{})
	target := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "cluster"}}
	if err := store.Create(ctx, target.DeepCopy()); err != nil {
		t.Fatal(err)
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
		t.Fatal(err)
	}
	if got, _, _ := unstructured.NestedString(w.Object, "status", "color"); got != "seeded" {
		t.Errorf("seeded Widget: status.color = %q, want seeded", got)
	}
}
