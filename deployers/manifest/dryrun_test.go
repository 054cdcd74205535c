package manifest_test

import (
	"encoding/json"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/deployers/manifest"
)

func TestDryRunExports(t *testing.T) {
	const cm = "- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}, data: {k: v}}\n"
	const list = "- manifest: {apiVersion: v1, kind: ConfigMapList, items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: ns}, data: {k: w}}]}\n"
	const ref = "- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: pointer, namespace: ns}, data: {name: a}}\n"
	tests := []struct {
		name   string
		config string
		want   string // JSON of the exports; "" when the dry run cannot tell
	}{
		{name: "data of a manifest",
			config: "manifests:\n" + cm + "exports:\n  exports:\n  - {key: test, jsonPath: .data, fromResource: {apiVersion: v1, kind: ConfigMap, name: a, namespace: ns}}",
			want:   `{"test":{"k":"v"}}`},
		{name: "nested key, two exports merged, an item of a list",
			config: "manifests:\n" + cm + list + "exports:\n  exports:\n  - {key: x.one, jsonPath: .data.k, fromResource: {apiVersion: v1, kind: ConfigMap, name: a, namespace: ns}}\n  - {key: x.two, jsonPath: .data.k, fromResource: {apiVersion: v1, kind: ConfigMap, name: b, namespace: ns}}",
			want:   `{"x":{"one":"v","two":"w"}}`},
		{name: "fromObjectReference to another manifest",
			config: "manifests:\n" + cm + ref + "exports:\n  exports:\n  - {key: test, jsonPath: .data, fromResource: {apiVersion: v1, kind: ConfigMap, name: pointer, namespace: ns}, fromObjectRef: {apiVersion: v1, kind: ConfigMap, jsonPath: .data.k}}",
			want:   `{"test":"v"}`},
		{name: "what the cluster adds",
			config: "manifests:\n" + cm + "exports:\n  exports:\n  - {key: test, jsonPath: .metadata.uid, fromResource: {apiVersion: v1, kind: ConfigMap, name: a, namespace: ns}}"},
		{name: "an object the item does not apply",
			config: "manifests:\n" + cm + "exports:\n  exports:\n  - {key: test, jsonPath: .data, fromResource: {apiVersion: v1, kind: ConfigMap, name: other, namespace: ns}}"},
		{name: "another kind of the same name",
			config: "manifests:\n" + cm + "exports:\n  exports:\n  - {key: test, jsonPath: .data, fromResource: {apiVersion: v1, kind: Secret, name: a, namespace: ns}}"},
		{name: "a manifest the deployer ignores",
			config: "manifests:\n- policy: ignore\n  manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}, data: {k: v}}\nexports:\n  exports:\n  - {key: test, jsonPath: .data, fromResource: {apiVersion: v1, kind: ConfigMap, name: a, namespace: ns}}"},
		{name: "another Target",
			config: "manifests:\n" + cm + "exports:\n  exports:\n  - {key: test, jsonPath: .data, targetName: other, fromResource: {apiVersion: v1, kind: ConfigMap, name: a, namespace: ns}}"},
		{name: "one of two exports cannot be read",
			config: "manifests:\n" + cm + "exports:\n  exports:\n  - {key: one, jsonPath: .data, fromResource: {apiVersion: v1, kind: ConfigMap, name: a, namespace: ns}}\n  - {key: two, jsonPath: .status, fromResource: {apiVersion: v1, kind: ConfigMap, name: a, namespace: ns}}"},
		{name: "no exports", config: "manifests:\n" + cm},
		{name: "invalid configuration", config: "manifests: 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := yaml.YAMLToJSON([]byte(header + tt.config))
			if err != nil {
				t.Fatal(err)
			}
			item := &lsv1alpha1.DeployItem{}
			item.Name, item.Namespace = "di", "default"
			item.Spec.Type = manifest.Type
			item.Spec.Configuration = &runtime.RawExtension{Raw: raw}
			got, ok := manifest.DryRunExports(item)
			if tt.want == "" {
				if ok {
					t.Fatalf("got %v, want none (the dry run cannot tell)", got)
				}
				return
			}
			if !ok {
				t.Fatalf("got none, want %s", tt.want)
			}
			data, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.want {
				t.Errorf("got %s, want %s", data, tt.want)
			}
		})
	}
}
