package simcluster

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// TestGenerationEmptyAnnotations: kube-apiserver compares a Deployment's
// annotations (and an EndpointSlice's labels) with apiequality.Semantic,
// for which an empty map is a nil one, so a Deployment created with
// `annotations: {}` (prometheus-redis-exporter's chart renders it) keeps
// generation 1 through the controller's status writes and an update that
// leaves the annotations out, and is rolled out (observedGeneration 1).
func TestGenerationEmptyAnnotations(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {app: web}, annotations: {}}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {}}
    spec:
      containers: [{name: web, image: nginx}]
`)
	check := func(step string) {
		t.Helper()
		got := f.get("apps/v1", "Deployment", "default", "web")
		og, _, _ := unstructured.NestedInt64(got.Object, "status", "observedGeneration")
		if got.GetGeneration() != 1 || og != 1 {
			t.Errorf("%s: generation %d, observedGeneration %d; want 1 and 1", step, got.GetGeneration(), og)
		}
		res, err := status.Compute(got)
		if err != nil || res.Status != status.CurrentStatus {
			t.Errorf("%s: kstatus %v (%v), want Current", step, res, err)
		}
	}
	check("create")
	u := f.get("apps/v1", "Deployment", "default", "web")
	u.SetAnnotations(nil)
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	check("update without annotations")
	u = f.get("apps/v1", "Deployment", "default", "web")
	u.SetAnnotations(map[string]string{})
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	check("update with empty annotations")
	u = f.get("apps/v1", "Deployment", "default", "web")
	u.SetAnnotations(map[string]string{"a": "b"})
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	if got := f.get("apps/v1", "Deployment", "default", "web"); got.GetGeneration() != 2 {
		t.Errorf("update with an annotation: generation %d, want 2", got.GetGeneration())
	}
}

// TestGenerationRuleEmptyMaps: changed takes empty and nil annotations
// and labels as equal, as apiequality.Semantic.DeepEqual does, for typed
// and unstructured objects.
func TestGenerationRuleEmptyMaps(t *testing.T) {
	r := generationRule{annotations: true, labels: true}
	a := obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","annotations":{},"labels":{}},"spec":{"replicas":1}}`)
	b := obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w"},"spec":{"replicas":1}}`)
	if r.changed(a, b) || r.changed(b, a) {
		t.Error("empty and missing annotations and labels count as a change")
	}
	c := obj(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"x":"y"}},"spec":{"replicas":1}}`)
	if !r.changed(b, c) {
		t.Error("a new label is no change")
	}
}
