package simcluster

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestPDBValidation: a PodDisruptionBudget with minAvailable and
// maxUnavailable both set (NATS's chart with a merge of minAvailable) is
// refused on create and on update, with kube-apiserver's words; valid
// ones are stored.
func TestPDBValidation(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	both := pdbManifest("nats", pdbCases[0].spec)
	got := outcome(f.c.Create(ctx, obj(t, both)))
	want := `422 Invalid PodDisruptionBudget.policy "nats" is invalid: spec: Invalid value: {"MinAvailable":2,"Selector":{"matchLabels":{"app":"nats"}},"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`
	if !strings.HasPrefix(got, want) {
		t.Fatalf("create both:\ngot  %s\nwant %s", got, want)
	}
	f.create(pdbManifest("nats", pdbCases[1].spec))
	stored := obj(t, both)
	if err := f.c.Get(ctx, client.ObjectKeyFromObject(stored), stored); err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedField(stored.Object, int64(2), "spec", "minAvailable"); err != nil {
		t.Fatal(err)
	}
	if got := outcome(f.c.Update(ctx, stored)); !strings.HasPrefix(got, want) {
		t.Fatalf("update both:\ngot  %s\nwant %s", got, want)
	}
	for _, c := range pdbCases[3:] {
		if got := outcome(f.c.Create(ctx, obj(t, pdbManifest("x", c.spec)))); !strings.HasPrefix(got, "422 Invalid") {
			t.Errorf("%s: got %q, want 422 Invalid", c.name, got)
		}
	}
}
