package descriptor

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

const v2Doc = `
meta:
  schemaVersion: v2
component:
  name: example.com/app
  version: 1.0.0
  provider: internal
  repositoryContexts:
  - type: ociRegistry
    baseUrl: registry.example/components
  resources:
  - name: blueprint
    type: landscaper.gardener.cloud/blueprint
    relation: local
    access: {type: localFilesystemBlob, filename: blueprint, mediaType: application/x-tar}
  componentReferences:
  - name: db
    componentName: example.com/db
    version: 2.0.0
`

const v3Doc = `
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata:
  name: example.com/app
  version: 1.0.0
  provider:
    name: internal
repositoryContexts:
- type: ociRegistry
  baseUrl: registry.example/components
spec:
  resources:
  - name: blueprint
    type: landscaper.gardener.cloud/blueprint
    relation: local
    access: {type: localFilesystemBlob, filename: blueprint, mediaType: application/x-tar}
  references:
  - name: db
    componentName: example.com/db
    version: 2.0.0
meta:
  schemaVersion: v2
`

// Both schemas decode to the same v2 model; the schema is remembered, and
// a local resource without version gets the component's.
func TestDecodeBothSchemas(t *testing.T) {
	a, sa, err := Decode([]byte(v2Doc))
	if err != nil {
		t.Fatal(err)
	}
	b, sb, err := Decode([]byte(v3Doc))
	if err != nil {
		t.Fatal(err)
	}
	if sa != SchemaV2 || sb != SchemaV3 {
		t.Fatalf("schemas %q %q", sa, sb)
	}
	ya, _ := yaml.Marshal(a)
	yb, _ := yaml.Marshal(b)
	if string(ya) != string(yb) {
		t.Fatalf("v2 and v3 differ:\n%s\n---\n%s", ya, yb)
	}
	if a.Resources[0].Version != "1.0.0" {
		t.Errorf("local resource version %q, want the component's", a.Resources[0].Version)
	}
}

func TestEncodeV3RoundTrip(t *testing.T) {
	cd, _, err := Decode([]byte(v2Doc))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Encode(cd, SchemaV3)
	if err != nil {
		t.Fatal(err)
	}
	if m["kind"] != "ComponentVersion" || m["apiVersion"] != SchemaV3 {
		t.Fatalf("header: %v", m)
	}
	spec := m["spec"].(map[string]any)
	if _, ok := spec["references"]; !ok {
		t.Fatalf("v3 has no references: %v", spec)
	}
	back, err := FromMap(m)
	if err != nil {
		t.Fatal(err)
	}
	if back.ComponentReferences[0].ComponentName != "example.com/db" || back.Provider != "internal" {
		t.Fatalf("round trip: %+v", back)
	}
}

func TestProviderWithLabels(t *testing.T) {
	doc := strings.Replace(v3Doc, "    name: internal\n", "    name: acme\n    labels: [{name: team, value: a}]\n", 1)
	cd, _, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(cd.Provider), `{"name":"acme"`) {
		t.Fatalf("provider %q, want its JSON", cd.Provider)
	}
	m, _ := Encode(cd, SchemaV3)
	p := m["metadata"].(map[string]any)["provider"].(map[string]any)
	if p["name"] != "acme" || p["labels"] == nil {
		t.Fatalf("provider back: %v", p)
	}
}

func TestDecodeErrors(t *testing.T) {
	for name, tt := range map[string]struct{ doc, err string }{
		"no schema":     {"component: {name: a, version: '1'}", "unsupported component descriptor"},
		"other kind":    {"apiVersion: v1\nkind: ConfigMap", `got apiVersion "v1", kind "ConfigMap"`},
		"no name":       {"meta: {schemaVersion: v2}\ncomponent: {version: '1'}", "no component name or version"},
		"not an object": {"- a", "cannot unmarshal"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := Decode([]byte(tt.doc))
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err %v, want %q", err, tt.err)
			}
		})
	}
	if _, err := FromMap(map[string]any{"component": map[string]any{}}); err == nil ||
		err.Error() != "unable to determine component descriptor schema version" {
		t.Fatalf("FromMap: %v", err)
	}
}
