package template

import (
	"reflect"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"
)

// TestDecodeYAMLMatchesYAML: a decoded text, first and from the cache, is
// what sigs.k8s.io/yaml gives, including its conversion of scalars to the
// types of their fields.
func TestDecodeYAMLMatchesYAML(t *testing.T) {
	texts := []string{
		"deployItems:\n- name: a\n  type: landscaper.gardener.cloud/mock\n  config: {export: {n: 1, s: '01'}}\n  timeout: 10m\n",
		"subinstallations:\n- apiVersion: landscaper.gardener.cloud/v1alpha1\n  kind: InstallationTemplate\n  name: 1.0\n  blueprint: {ref: cd://x}\n",
		"exports: {a: 1, b: [true, null, 2.5], c: {d: e}}\nstate: {x: 1}\n",
		"{}",
		`{"n": 12345678901234567890, "f": 0.1, "e": 1e300, "s": "\u00e9<&>", "l": [1, {"a": null}], "t": "2025-01-01"}`,
	}
	type deployItems struct {
		DeployItems []struct {
			Name    string               `json:"name"`
			Type    string               `json:"type"`
			Config  map[string]any       `json:"config"`
			Timeout *lsv1alpha1.Duration `json:"timeout"`
		} `json:"deployItems"`
	}
	type subinsts struct {
		Subinstallations []*lsv1alpha1.InstallationTemplate `json:"subinstallations"`
	}
	type generic struct {
		Exports map[string]any `json:"exports"`
		State   map[string]any `json:"state"`
	}
	for _, text := range texts {
		for _, newOut := range []func() any{
			func() any { return &deployItems{} }, func() any { return &subinsts{} }, func() any { return &generic{} },
			func() any { var m map[string]any; return &m }, // as exports are read
		} {
			want := newOut()
			wantErr := yaml.Unmarshal([]byte(text), want)
			for round := range 2 {
				got := newOut()
				err := DecodeYAML([]byte(text), got)
				if (err != nil) != (wantErr != nil) || (err == nil && !reflect.DeepEqual(got, want)) {
					t.Errorf("round %d, %T of %q: got %+v (%v), want %+v (%v)", round, want, text, got, err, want, wantErr)
				}
			}
		}
	}
}
