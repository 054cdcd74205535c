package components

import (
	"testing"
	"testing/fstest"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/components/source"
	"github.com/lscli/lscli/reconcile"
)

// TestResourceByIdentity: a resource is found by its name only when its
// OCM identity is the name alone, as Landscaper's GetResource(NewIdentity)
// finds it.
func TestResourceByIdentity(t *testing.T) {
	res := func(name, version string, extra cdv2.Identity) cdv2.Resource {
		return cdv2.Resource{IdentityObjectMeta: cdv2.IdentityObjectMeta{Name: name, Version: version, ExtraIdentity: extra}}
	}
	v := &source.Version{Descriptor: &cdv2.ComponentDescriptor{}}
	v.Descriptor.Resources = []cdv2.Resource{
		res("plain", "1.0.0", nil),
		res("flavored", "1.0.0", cdv2.Identity{"flavor": "a"}),
		res("twice", "1.0.0", nil), res("twice", "2.0.0", nil),
		res("mixed", "1.0.0", nil), res("mixed", "1.0.0", cdv2.Identity{"flavor": "b"}),
	}
	for name, want := range map[string]bool{"plain": true, "flavored": false, "twice": false, "mixed": true, "none": false} {
		got, err := Resource(v, name)
		if (err == nil) != want {
			t.Errorf("Resource(%q): error %v, want found %v", name, err, want)
		}
		if err == nil && (got.Name != name || len(got.ExtraIdentity) != 0) {
			t.Errorf("Resource(%q) = %+v", name, got.IdentityObjectMeta)
		}
	}
}

// TestResourceByKeyIdentity: a resource key holds the resource's whole OCM
// identity (getResourceKey), with the version when another resource has the
// same name and extra identity; the chart lookup finds exactly that one.
func TestResourceByKeyIdentity(t *testing.T) {
	res := func(name, version string, extra cdv2.Identity) cdv2.Resource {
		return cdv2.Resource{IdentityObjectMeta: cdv2.IdentityObjectMeta{Name: name, Version: version, ExtraIdentity: extra}}
	}
	v := &source.Version{Descriptor: &cdv2.ComponentDescriptor{}}
	v.Descriptor.Resources = []cdv2.Resource{
		res("chart", "1.0.0", nil), res("chart", "2.0.0", nil),
		res("flavored", "1.0.0", cdv2.Identity{"flavor": "a"}),
	}
	for _, c := range []struct {
		id      cdv2.Identity
		version string // of the resource found; "" for none
	}{
		{cdv2.Identity{"name": "chart", "version": "2.0.0"}, "2.0.0"},
		{cdv2.Identity{"name": "chart", "version": "1.0.0"}, "1.0.0"},
		{cdv2.Identity{"name": "chart"}, ""},
		{cdv2.Identity{"name": "flavored", "flavor": "a"}, "1.0.0"},
		{cdv2.Identity{"name": "flavored"}, ""},
	} {
		got, err := ResourceByIdentity(v, c.id)
		if c.version == "" {
			if err == nil {
				t.Errorf("ResourceByIdentity(%v) = %+v, want none", c.id, got.IdentityObjectMeta)
			}
			continue
		}
		if err != nil || got.Version != c.version {
			t.Errorf("ResourceByIdentity(%v) = %+v, %v, want version %s", c.id, got.IdentityObjectMeta, err, c.version)
		}
	}
}

// TestMissingResource: Landscaper's error for a resource the version does
// not have stays first; lscli adds where the version came from and what it
// has (here, with a nil registry, no unreadable sources).
func TestMissingResource(t *testing.T) {
	v := &source.Version{Descriptor: &cdv2.ComponentDescriptor{}, Origin: "component archive test/internal"}
	v.Descriptor.Name, v.Descriptor.Version = "example.com/app", "1.0.0"
	var r *Registry
	_, err := Resource(v, "blueprint")
	got := r.missingResource(v, err).Error()
	want := "failed to get resource with name blueprint (lscli took component example.com/app:1.0.0 from component archive test/internal, which has no resources)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	v.Descriptor.Resources = []cdv2.Resource{{IdentityObjectMeta: cdv2.IdentityObjectMeta{Name: "chart"}}, {IdentityObjectMeta: cdv2.IdentityObjectMeta{Name: "image"}}}
	got = r.missingResource(v, err).Error()
	want = "failed to get resource with name blueprint (lscli took component example.com/app:1.0.0 from component archive test/internal, which has resources chart, image)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// The installation's status has Landscaper's words alone
	// (pkg/components/ocmlib/componentversion.go, which ResolveBlueprint
	// returns as it is).
	if got := reconcile.StatusText(r.missingResource(v, err)); got != "failed to get resource with name blueprint" {
		t.Errorf("status text %q", got)
	}
}

// TestBlueprintOfAnotherType: Landscaper's ResolveBlueprint picks the
// resource's type handler before it reads anything
// (pkg/components/ocmlib/resource.go GetTypedContent): a chart in a registry
// is "no handler found", not a registry lscli cannot read; a JSON schema is
// read by its handler, and then is no blueprint
// (pkg/landscaper/blueprints/resolve.go).
func TestBlueprintOfAnotherType(t *testing.T) {
	files := fstest.MapFS{
		"c.yaml": {Data: []byte(`components:
- name: example.com/ty
  version: 1.0.0
  provider: {name: x}
  resources:
  - {name: chart, type: helmChart, access: {type: ociArtifact, imageReference: registry.example/charts/nowhere:1.0.0}}
  - {name: schema, type: landscaper.gardener.cloud/jsonschema, input: {type: file, path: schema.json}}
`)},
		"schema.json": {Data: []byte(`{"type":"string"}`)},
	}
	r := newTestRegistry(Config{}, files)
	tree, err := r.Resolve(Request{Repo: repoContext(t, ociContext), Name: "example.com/ty", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"chart":  `component example.com/ty:1.0.0, resource "chart": no handler found for resource type helmChart`,
		"schema": `component example.com/ty:1.0.0, resource "schema": received resource of type *blueprints.Blueprint but expected type *Blueprint`,
	} {
		_, err := r.Blueprint(tree.Root, name)
		if err == nil || err.Error() != want {
			t.Errorf("%s: got  %v\nwant %s", name, err, want)
		}
	}
}
