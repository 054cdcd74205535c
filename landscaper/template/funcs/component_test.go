package funcs

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"
)

// inlineCD is a component with two resources and a reference to a component
// given inline, which references one that is not.
const inlineCD = `
meta: {schemaVersion: v2}
component:
  name: example.com/root
  version: 1.0.0
  provider: internal
  repositoryContexts:
  - {type: ociRegistry, baseUrl: old.example.com}
  - {type: ociRegistry, baseUrl: registry.example.com}
  sources: []
  resources:
  - name: image
    type: ociImage
    version: 1.0.0
    relation: external
    access: {type: ociRegistry, imageReference: registry.example.com/app:1.0.0}
  - name: image
    type: ociImage
    version: 1.0.0
    extraIdentity: {arch: arm64}
    relation: external
    access: {type: ociRegistry, imageReference: registry.example.com/app-arm:1.0.0}
  componentReferences:
  - name: db
    componentName: example.com/db
    version: 2.0.0
    labels:
    - name: landscaper.gardener.cloud/component-descriptor
      value:
        meta: {schemaVersion: v2}
        component:
          name: example.com/db
          version: 2.0.0
          provider: internal
          repositoryContexts: []
          sources: []
          resources:
          - {name: chart, type: helmChart, version: 2.0.0, relation: external, access: {type: ociRegistry, imageReference: registry.example.com/db:2.0.0}}
          componentReferences:
          - {name: storage, componentName: example.com/storage, version: 3.0.0}
`

func testComponents(t *testing.T) *Components {
	t.Helper()
	def := &lsv1alpha1.ComponentDescriptorDefinition{}
	if err := yaml.Unmarshal([]byte("inline:\n"+indent(inlineCD)), def); err != nil {
		t.Fatal(err)
	}
	c, err := NewComponents(def)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimPrefix(s, "\n"), "\n", "\n  ")
}

func TestComponentsList(t *testing.T) {
	c := testComponents(t)
	if len(c.List) != 2 || c.List[1].GetName() != "example.com/db" {
		t.Fatalf("List = %d components, want root and db", len(c.List))
	}
	cd, comps, err := c.Bindings()
	if err != nil {
		t.Fatal(err)
	}
	if cd.(map[string]any)["meta"].(map[string]any)["schemaVersion"] != "v2" {
		t.Errorf("cd binding = %v", cd)
	}
	if n := len(comps.(map[string]any)["components"].([]any)); n != 2 {
		t.Errorf("components binding has %d components, want 2", n)
	}
	none, _ := NewComponents(nil)
	if cd, comps, err := none.Bindings(); cd != nil || comps != nil || err != nil {
		t.Errorf("no component descriptor: bindings = %v, %v, %v", cd, comps, err)
	}
}

func TestComponentFunctions(t *testing.T) {
	c := testComponents(t)
	root := func() map[string]any { cd, _, _ := c.Bindings(); return cd.(map[string]any) }
	tests := []struct {
		name string
		call func() (any, error)
		want string // substring of the result printed as YAML, or of the error
		err  bool
	}{
		{name: "getResource", call: func() (any, error) { return c.Resource("name", "image") }, want: "app:1.0.0"},
		{name: "getResource extra identity", call: func() (any, error) { return c.Resource("name", "image", "arch", "arm64") }, want: "app-arm:1.0.0"},
		{name: "getResource with cd", call: func() (any, error) { return c.Resource(root(), "name", "image") }, want: "app:1.0.0"},
		{name: "getResources", call: func() (any, error) { return c.Resources("name", "image") }, want: "app-arm:1.0.0"},
		{name: "getResource none", call: func() (any, error) { return c.Resource("name", "nope") }, err: true,
			want: "no resource of component example.com/root:1.0.0 matches name=nope"},
		{name: "getResource odd args", call: func() (any, error) { return c.Resource("name") }, err: true,
			want: "want name/value pairs of an identity"},
		{name: "getComponent", call: func() (any, error) { return c.Component("name", "db") }, want: "name: example.com/db"},
		{name: "getComponent not inline", call: func() (any, error) {
			db, _ := c.Component("name", "db")
			return c.Component(db, "name", "storage")
		}, err: true, want: `component reference "storage" (example.com/storage:3.0.0) is not available`},
		{name: "getRepositoryContext", call: func() (any, error) { return RepositoryContext(root()) }, want: "baseUrl: registry.example.com"},
		{name: "getRepositoryContext no map", call: func() (any, error) { return RepositoryContext("x") }, err: true, want: "want a component descriptor"},
		{name: "getRepositoryContext not a cd", call: func() (any, error) { return RepositoryContext(map[string]any{"a": 1}) }, want: "null"},
		{name: "getRepositoryContext bad cd", call: func() (any, error) {
			return RepositoryContext(map[string]any{"meta": map[string]any{"schemaVersion": "v2"}, "component": "x"})
		}, want: "null"},
		{name: "no component descriptor", call: func() (any, error) { return (&Components{}).Resource("name", "x") }, err: true,
			want: "the installation has no component descriptor (spec.componentDescriptor)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.call()
			if tt.err {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err = %v, want %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, _ := yaml.Marshal(got)
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("result %s does not contain %q", out, tt.want)
			}
		})
	}
}

// getComponent of a reference whose component is not in the list: in
// Landscaper's words (ResolveComponents in
// pkg/landscaper/installations/executions/template/helper.go), the
// reference's name and version.
func TestComponentNotInListLandscaperMessage(t *testing.T) {
	c := testComponents(t)
	db, _ := c.Component("name", "db")
	_, err := c.Component(db, "name", "storage")
	var lw interface{ LandscaperMessage() string }
	if !errors.As(err, &lw) || lw.LandscaperMessage() != "unable to resolve component storage:3.0.0" {
		t.Fatalf("err = %v, want Landscaper's message %q", err, "unable to resolve component storage:3.0.0")
	}
}

func TestResourceKey(t *testing.T) {
	c := testComponents(t)
	tests := []struct {
		name, ref, want, err string
	}{
		{name: "own resource", ref: "cd://resources/image",
			want: "component:\n  name: example.com/root\n  version: 1.0.0\nresource:\n  name: image\n"},
		{name: "referenced component", ref: "cd://componentReferences/db/resources/chart",
			want: "component:\n  name: example.com/db\n  version: 2.0.0\nresource:\n  name: chart\n"},
		{name: "relative reference", ref: "{resource: {name: chart}, referencePath: [{name: db}]}",
			want: "component:\n  name: example.com/db\n  version: 2.0.0\nresource:\n  name: chart\n"},
		{name: "unknown resource", ref: "cd://resources/nope", err: "has no resource map[name:nope]"},
		{name: "unknown reference", ref: "cd://componentReferences/nope/resources/x", err: "has no component reference"},
		// Landscaper's ParseResourceReference (template/common/utils.go)
		// parses cd:// with cdutils.ParseURI and AsRelativeResourceReference.
		{name: "unknown keyword", ref: "cd://sources/x", err: "unknown keyword sources"},
		{name: "fragment", ref: "cd://componentReferences/db/resources/chart#x",
			want: "component:\n  name: example.com/db\n  version: 2.0.0\nresource:\n  name: chart\n"},
		{name: "ends at a component", ref: "cd://componentReferences/db",
			err: "the selector seems to target a component but a resource is requested"},
		{name: "more after a resource", ref: "cd://resources/image/resources/x",
			err: "the selector seems to contain more path segments after a resource"},
		{name: "odd path", ref: "cd://resources", err: "failed to parse argument into URI: even number of path arguments expected"},
		{name: "not yaml", ref: "{resource: [", err: "failed to unmarshal argument into a relative resource reference: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.ResourceKey(tt.ref)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, _ := base64.StdEncoding.DecodeString(got)
			if string(data) != tt.want {
				t.Errorf("key decodes to %q, want %q", data, tt.want)
			}
		})
	}
}

func TestFollow(t *testing.T) {
	c := testComponents(t)
	name, version, cd, err := c.Follow([]string{"db"})
	if err != nil || name != "example.com/db" || version != "2.0.0" || cd == nil {
		t.Fatalf("Follow(db) = %s %s %v %v", name, version, cd != nil, err)
	}
	name, version, cd, err = c.Follow([]string{"db", "storage"})
	if err != nil || name != "example.com/storage" || version != "3.0.0" || cd != nil {
		t.Fatalf("Follow(db, storage) = %s %s %v %v", name, version, cd != nil, err)
	}
	if _, _, _, err := c.Follow([]string{"db", "storage", "x"}); err == nil || !strings.Contains(err.Error(), `"storage" is not available inline`) {
		t.Fatalf("Follow past a reference that is not inline: err = %v", err)
	}
}

// TestNoRootNamesWhatToMap: when the installation's component version or one
// it references is in no local source, the component functions' error names
// the component to map and shows the config file's line for it (as
// gardener/landscaper-examples' render-blueprint/access-cd-reference-remote
// needs, whose referenced component is pushed to a registry).
func TestNoRootNamesWhatToMap(t *testing.T) {
	for _, tc := range []struct {
		c    Components
		want string
	}{
		{Components{NotFound: "example.com/main:v0.1.0", Missing: "example.com/referenced:v0.2.0"},
			`example.com/referenced:v0.2.0, which it references, was not found; the config file's blueprints map gives its ` +
				`blueprint, not its component descriptors; map a folder or file that has example.com/referenced under ` +
				`components:, e.g. components: {"example.com/referenced": ./path/to/folder} (see docs/components.md)`},
		{Components{NotFound: "example.com/main:v0.1.0"},
			`example.com/main:v0.1.0 was not found: the config file's blueprints map gives its blueprint, not its component ` +
				`descriptor; map a folder or file that has example.com/main under components:, e.g. components: ` +
				`{"example.com/main": ./path/to/folder} (see docs/components.md)`},
		// gardener's controlplane ships a component-cli descriptor list
		// (the container's input); mapped under components:, it is read
		// and holds no component: the error says so.
		{Components{NotFound: "example.com/main:v0.1.0", Unreadable: []string{"list.yaml is neither a component constructor nor a component descriptor"}},
			`{"example.com/main": ./path/to/folder} (see docs/components.md); lscli could not read: list.yaml is neither a ` +
				`component constructor nor a component descriptor`},
		{Components{NotFound: "example.com/main:v0.1.0", LookupErr: "lscli.yaml maps components[\"example.com/main\"] to list.yaml, which does not hold example.com/main:v0.1.0"},
			`(see docs/components.md); the lookup failed: lscli.yaml maps components["example.com/main"] to list.yaml, which does not hold example.com/main:v0.1.0`},
	} {
		err := tc.c.RequireRoot()
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("RequireRoot() = %v, want it to end in %s", err, tc.want)
		}
	}
}
