package funcs

import (
	"encoding/base64"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"
)

// identityCD has resources and references that only OCM's identities tell
// apart: extra identities, and names used twice with another version.
const identityCD = `
inline:
  meta: {schemaVersion: v2}
  component:
    name: example.com/ids
    version: 1.0.0
    provider: internal
    repositoryContexts: []
    sources: []
    resources:
    - {name: image, version: 1.0.0, type: ociImage, extraIdentity: {arch: arm64}, relation: external, access: {type: ociRegistry, imageReference: r.io/img-arm:1}}
    - {name: image, version: 1.0.0, type: ociImage, relation: external, access: {type: ociRegistry, imageReference: r.io/img:1}}
    - {name: armonly, version: 1.0.0, type: ociImage, extraIdentity: {arch: arm64}, relation: external, access: {type: ociRegistry, imageReference: r.io/arm:1}}
    - {name: multi, version: 1.0.0, type: ociImage, relation: external, access: {type: ociRegistry, imageReference: r.io/multi:1}}
    - {name: multi, version: 2.0.0, type: ociImage, relation: external, access: {type: ociRegistry, imageReference: r.io/multi:2}}
    componentReferences:
    - name: variant
      componentName: example.com/leaf
      version: 1.0.0
      extraIdentity: {flavor: small}
      labels:
      - name: landscaper.gardener.cloud/component-descriptor
        value:
          meta: {schemaVersion: v2}
          component:
            name: example.com/leaf
            version: 1.0.0
            provider: internal
            repositoryContexts: []
            sources: []
            componentReferences: []
            resources:
            - {name: chart, version: 1.0.0, type: helmChart, relation: external, access: {type: ociRegistry, imageReference: r.io/chart:1}}
`

// TestResourceReferenceIdentity: Landscaper resolves the resource
// references of getResourceKey and getResourceContent with OCM
// (resourcerefs.ResolveResourceReference), which finds a resource or a
// component reference by its whole identity (GetResourceByIdentity): name,
// extra identity, and the version when another element has the same name
// and extra identity. So cd://resources/NAME does not reach a resource
// with an extra identity, nor one whose name another version shares; and
// the key carries that identity (resource.Meta().GetIdentity).
func TestResourceReferenceIdentity(t *testing.T) {
	def := &lsv1alpha1.ComponentDescriptorDefinition{}
	if err := yaml.Unmarshal([]byte(identityCD), def); err != nil {
		t.Fatal(err)
	}
	c, err := NewComponents(def)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ ref, want, err string }{
		{ref: "cd://resources/image", want: "resource:\n  name: image\n"},
		{ref: "{resource: {name: image, arch: arm64}}", want: "resource:\n  arch: arm64\n  name: image\n"},
		{ref: "cd://resources/armonly", err: "has no resource"},
		{ref: "{resource: {name: armonly}}", err: "has no resource"},
		{ref: "cd://resources/multi", err: "has no resource"},
		{ref: "{resource: {name: multi, version: 2.0.0}}", want: "resource:\n  name: multi\n  version: 2.0.0\n"},
		{ref: "cd://componentReferences/variant/resources/chart", err: "has no component reference"},
		{ref: "{resource: {name: chart}, referencePath: [{name: variant, flavor: small}]}", want: "resource:\n  name: chart\n"},
	}
	for _, tt := range tests {
		got, err := c.ResourceKey(tt.ref)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want %q", tt.ref, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.ref, err)
			continue
		}
		data, _ := base64.StdEncoding.DecodeString(got)
		if _, id, _ := strings.Cut(string(data), "resource:\n"); "resource:\n"+id != tt.want {
			t.Errorf("%s: key %q, want the identity %q", tt.ref, data, tt.want)
		}
	}
}
