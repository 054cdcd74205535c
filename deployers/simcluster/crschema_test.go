package simcluster

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// schemaCRDManifest is a CRD whose schema prunes, defaults and validates
// (with a CEL rule), as cert-manager's or Flux's CRDs do.
const schemaCRDManifest = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [url]
            x-kubernetes-validations:
            - rule: "self.replicas <= 10"
              message: replicas must be at most 10
            properties:
              url: {type: string, pattern: '^https?://'}
              interval: {type: string, default: 5m}
              replicas: {type: integer, minimum: 0, default: 1}
              mode: {type: string, enum: [fast, slow]}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              ready: {type: boolean}
`

const gadgetManifest = `
apiVersion: example.com/v1
kind: Gadget
metadata: {name: g, namespace: default}
spec:
  url: https://example.com
  unknown: dropped
  extra: {kept: "yes"}
`

// TestCustomResourceSchema checks that a custom resource is pruned,
// defaulted and validated by its CRD's schema on every kind of write, as
// kube-apiserver does (TestRealClusterCustomResourceSchema compares with
// a real one).
func TestCustomResourceSchema(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(schemaCRDManifest, gadgetManifest)
	got := f.get("example.com/v1", "Gadget", "default", "g")
	if _, has, _ := unstructured.NestedFieldNoCopy(got.Object, "spec", "unknown"); has {
		t.Errorf("spec.unknown was not pruned: %v", got.Object["spec"])
	}
	if v, _, _ := unstructured.NestedString(got.Object, "spec", "extra", "kept"); v != "yes" {
		t.Errorf("spec.extra.kept = %q, want the preserved yes", v)
	}
	if v, _, _ := unstructured.NestedString(got.Object, "spec", "interval"); v != "5m" {
		t.Errorf("spec.interval = %q, want the default 5m", v)
	}
	if v, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); v != 1 {
		t.Errorf("spec.replicas = %d, want the default 1", v)
	}

	for _, tc := range []struct {
		name, manifest, want string
	}{
		{"pattern", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"bad","namespace":"default"},"spec":{"url":"ftp://x"}}`,
			`Gadget.example.com "bad" is invalid: spec.url: Invalid value: "ftp://x": spec.url in body should match '^https?://'`},
		{"required", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"bad","namespace":"default"},"spec":{}}`,
			`Gadget.example.com "bad" is invalid: [spec.url: Required value, <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`},
		{"enum", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"bad","namespace":"default"},"spec":{"url":"http://x","mode":"medium"}}`,
			`Gadget.example.com "bad" is invalid: [spec.mode: Unsupported value: "medium": supported values: "fast", "slow", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`},
		{"cel", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"bad","namespace":"default"},"spec":{"url":"http://x","replicas":11}}`,
			`Gadget.example.com "bad" is invalid: spec: Invalid value: replicas must be at most 10`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := f.c.Create(ctx, obj(t, tc.manifest))
			if err == nil || err.Error() != tc.want {
				t.Errorf("create: %v\nwant: %s", err, tc.want)
			}
		})
	}

	// Update and patch are pruned, defaulted and validated too.
	got.Object["spec"] = map[string]any{"url": "http://y", "again": "dropped"}
	if err := f.c.Update(ctx, got); err != nil {
		t.Fatalf("update: %v", err)
	}
	got = f.get("example.com/v1", "Gadget", "default", "g")
	if spec := got.Object["spec"].(map[string]any); spec["again"] != nil || spec["interval"] != "5m" {
		t.Errorf("updated spec = %v, want pruned and defaulted", spec)
	}
	patch := client.RawPatch("application/merge-patch+json", []byte(`{"spec":{"url":"gopher://z"}}`))
	if err := f.c.Patch(ctx, got, patch); err == nil {
		t.Error("a patch that breaks the pattern was accepted")
	}
}

// TestCustomResourceStatusSubresource checks that, for a CRD with
// subresources.status, an update of the object keeps the stored status and
// a status update keeps the stored spec, as the custom resource strategies
// (PrepareForUpdate of the object and of its status) do.
func TestCustomResourceStatusSubresource(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(schemaCRDManifest, gadgetManifest)
	g := f.get("example.com/v1", "Gadget", "default", "g")
	g.Object["status"] = map[string]any{"ready": true}
	if err := f.c.Status().Update(ctx, g); err != nil {
		t.Fatalf("status update: %v", err)
	}
	g = f.get("example.com/v1", "Gadget", "default", "g")
	g.Object["status"] = map[string]any{"ready": false}
	_ = unstructured.SetNestedField(g.Object, "http://changed", "spec", "url")
	if err := f.c.Update(ctx, g); err != nil {
		t.Fatalf("update: %v", err)
	}
	g = f.get("example.com/v1", "Gadget", "default", "g")
	if ready, _, _ := unstructured.NestedBool(g.Object, "status", "ready"); !ready {
		t.Errorf("an update of the object changed its status: %v", g.Object["status"])
	}
	_ = unstructured.SetNestedField(g.Object, "http://from-status", "spec", "url")
	g.Object["status"] = map[string]any{"ready": false}
	if err := f.c.Status().Update(ctx, g); err != nil {
		t.Fatalf("status update: %v", err)
	}
	g = f.get("example.com/v1", "Gadget", "default", "g")
	if url, _, _ := unstructured.NestedString(g.Object, "spec", "url"); url != "http://changed" {
		t.Errorf("a status update changed spec.url to %q", url)
	}
	if ready, _, _ := unstructured.NestedBool(g.Object, "status", "ready"); ready {
		t.Errorf("the status update was not stored: %v", g.Object["status"])
	}
	// A status write is validated by the schema of status alone, which
	// names the field from there (TestRealClusterCustomResourceUpdates).
	g.Object["status"] = map[string]any{"ready": "very"}
	want := `Gadget.example.com "g" is invalid: [status.ready: Invalid value: "string": ready in body must be of type boolean: "string", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`
	if err := f.c.Status().Update(ctx, g); err == nil || err.Error() != want {
		t.Errorf("status update: %v\nwant: %s", err, want)
	}
}

// TestCustomResourceSchemaFollowsCRD checks that a write of a CRD makes
// its new schema the one its custom resources are written by, and that
// deleting and recreating it does too.
func TestCustomResourceSchemaFollowsCRD(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(schemaCRDManifest, gadgetManifest)
	crd := f.get("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "gadgets.example.com")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	v := versions[0].(map[string]any)
	if err := unstructured.SetNestedField(v, "10m", "schema", "openAPIV3Schema", "properties", "spec", "properties", "interval", "default"); err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedField(v, map[string]any{"type": "string"}, "schema", "openAPIV3Schema", "properties", "spec", "properties", "unknown"); err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedSlice(crd.Object, versions, "spec", "versions"); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Update(ctx, crd); err != nil {
		t.Fatalf("update CRD: %v", err)
	}
	second := obj(t, gadgetManifest)
	second.SetName("second")
	if err := f.c.Create(ctx, second); err != nil {
		t.Fatal(err)
	}
	got := f.get("example.com/v1", "Gadget", "default", "second")
	if spec := got.Object["spec"].(map[string]any); spec["interval"] != "10m" || spec["unknown"] != "dropped" {
		t.Errorf("spec after the CRD changed = %v, want interval 10m and unknown kept", spec)
	}
	if err := f.c.Delete(ctx, crd); err != nil {
		t.Fatal(err)
	}
	f.create(schemaCRDManifest, gadgetManifest)
	got = f.get("example.com/v1", "Gadget", "default", "g")
	if spec := got.Object["spec"].(map[string]any); spec["interval"] != "5m" || spec["unknown"] != nil {
		t.Errorf("spec after the CRD was recreated = %v, want interval 5m and unknown pruned", spec)
	}

	// Writes of custom resources build no schema.
	c, err := f.clusters.ClusterFor(ctx, f.target)
	if err != nil {
		t.Fatal(err)
	}
	built := c.schemasBuilt
	for _, name := range []string{"a", "b", "c"} {
		u := obj(t, gadgetManifest)
		u.SetName(name)
		if err := f.c.Create(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if c.schemasBuilt != built {
		t.Errorf("three custom resource writes built %d schemas", c.schemasBuilt-built)
	}
}
