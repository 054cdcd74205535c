package apidecode_test

import (
	"errors"
	"strings"
	"testing"

	helminstall "github.com/gardener/landscaper/apis/deployer/helm/install"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	manifestinstall "github.com/gardener/landscaper/apis/deployer/manifest/install"
	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"

	"github.com/lscli/lscli/internal/apidecode"
)

// TestDecodeIsLandscapersDecoder: configurations decode as Landscaper's
// deployers decode them: with or without apiVersion and kind (without them,
// straight into the internal version, which has no defaults); names as
// written, unknown ones ignored; another kind or version refused.
func TestDecodeIsLandscapersDecoder(t *testing.T) {
	helm := apidecode.New(helminstall.Install)
	tests := []struct {
		name string
		data string
		err  string
		// chart and strategy are what a decoded helm configuration holds.
		chart, strategy string
	}{
		{name: "versioned", data: `{"apiVersion":"helm.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderConfiguration","name":"r","chart":{"ref":"c"}}`,
			chart: "c", strategy: "update"},
		{name: "no apiVersion and kind", data: `{"name":"r","chart":{"ref":"c"},"updateStrategy":"patch"}`, chart: "c", strategy: "patch"},
		{name: "unknown fields", data: `{"name":"r","chart":{"ref":"c"},"whatever":[1]}`, chart: "c", strategy: ""},
		{name: "a name in another case is unknown", data: `{"name":"r","Chart":{"ref":"c"}}`, chart: "", strategy: ""},
		{name: "another version", data: `{"apiVersion":"helm.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration"}`,
			err: `no kind "ProviderConfiguration" is registered for version "helm.deployer.landscaper.gardener.cloud/v1alpha2"`},
		{name: "another kind", data: `{"apiVersion":"helm.deployer.landscaper.gardener.cloud/v1alpha1","kind":"Configuration"}`,
			err: `converting (helm.Configuration) to (v1alpha1.ProviderConfiguration): unknown conversion`},
		{name: "an unknown kind", data: `{"apiVersion":"helm.deployer.landscaper.gardener.cloud/v1alpha1","kind":"Chart"}`,
			err: `no kind "Chart" is registered`},
		{name: "a type error", data: `{"name":5}`, err: "unable to decode to internal type: json: cannot unmarshal number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &helmv1alpha1.ProviderConfiguration{}
			err := helm.Decode([]byte(tt.data), cfg)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("Decode() error = %v, want one with %q", err, tt.err)
				}
				var ke *apidecode.KindError
				if isKind := strings.Contains(tt.name, "kind") || strings.Contains(tt.name, "version"); isKind != errors.As(err, &ke) {
					t.Errorf("Decode() error %v: a KindError %v, want %v", err, !isKind, isKind)
				}
				if strings.Contains(err.Error(), " in scheme ") {
					t.Errorf("Decode() error %q names the Go file of the scheme", err)
				}
			case err != nil:
				t.Errorf("Decode() error = %v", err)
			case cfg.Chart.Ref != tt.chart || string(cfg.UpdateStrategy) != tt.strategy:
				t.Errorf("chart.ref %q, updateStrategy %q; want %q, %q", cfg.Chart.Ref, cfg.UpdateStrategy, tt.chart, tt.strategy)
			}
		})
	}
}

// TestDecodeConvertsVersions: a manifest configuration of v1alpha1 decodes
// into v1alpha2 through the internal version, its manifests getting the
// default policy.
func TestDecodeConvertsVersions(t *testing.T) {
	manifest := apidecode.New(manifestinstall.Install)
	data := `{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderConfiguration",` +
		`"manifests":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}]}`
	cfg := &manifestv1alpha2.ProviderConfiguration{}
	if err := manifest.Decode([]byte(data), cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Manifests) != 1 || cfg.Manifests[0].Policy != "manage" || !strings.Contains(string(cfg.Manifests[0].Manifest.Raw), `"ConfigMap"`) {
		t.Errorf("manifests = %+v, want the ConfigMap with policy manage", cfg.Manifests)
	}
	if err := manifest.Decode([]byte(`{"manifests":[]}`), &manifestv1alpha2.ProviderConfiguration{}); err != nil {
		t.Errorf("a configuration without apiVersion and kind: %v, want it decoded as Landscaper's deployer decodes it", err)
	}
}

// TestDecodeKeepsValues: decoding a text again gives the value of the
// first decoding, as a copy of its own; the way of decoding is part of
// what is kept (straight into the version gets its defaults, through the
// internal version not), and a failure is not kept.
func TestDecodeKeepsValues(t *testing.T) {
	helm := apidecode.New(helminstall.Install)
	data := []byte(`{"name":"r","chart":{"ref":"c"},"values":{"a":[1,2]}}`)
	first := &helmv1alpha1.ProviderConfiguration{}
	if err := helm.Decode(data, first); err != nil {
		t.Fatal(err)
	}
	first.Chart.Ref = "changed by the caller"
	first.Values[0] = 'X'
	again := &helmv1alpha1.ProviderConfiguration{}
	if err := helm.Decode(data, again); err != nil {
		t.Fatal(err)
	}
	if again.Chart.Ref != "c" || string(again.Values) != `{"a":[1,2]}` || again.UpdateStrategy != "" {
		t.Errorf("decoded again: chart.ref %q, values %s, updateStrategy %q; want the first decoding's", again.Chart.Ref, again.Values, again.UpdateStrategy)
	}
	versioned := &helmv1alpha1.ProviderConfiguration{}
	if err := helm.DecodeVersioned(data, versioned); err != nil {
		t.Fatal(err)
	}
	if versioned.UpdateStrategy != "update" {
		t.Errorf("DecodeVersioned after Decode of the same text: updateStrategy %q, want the version's default update", versioned.UpdateStrategy)
	}
	bad := []byte(`{"name":5}`)
	for i := range 2 {
		if err := helm.Decode(bad, &helmv1alpha1.ProviderConfiguration{}); err == nil {
			t.Errorf("decoding %s, time %d: no error", bad, i+1)
		}
	}
}
