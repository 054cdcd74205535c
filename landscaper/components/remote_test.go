package components

import (
	"slices"
	"testing"
)

// TestDescribeRemoteDigest: an ociArtifact chart pinned by digest, as an OCM
// transfer leaves it ("repo:tag@sha256:<hex>"), is the chart of the
// repository's last element and the tag, and the charts map maps it by the
// full reference, by the tagged one or by the repository.
func TestDescribeRemoteDigest(t *testing.T) {
	const hex = "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
	tests := []struct {
		ref, name, version string
		keys               []string
	}{
		{ref: "registry.example/charts/cert-manager:v1.13.3@sha256:" + hex, name: "cert-manager", version: "v1.13.3",
			keys: []string{"registry.example/charts/cert-manager:v1.13.3@sha256:" + hex, "registry.example/charts/cert-manager:v1.13.3", "registry.example/charts/cert-manager"}},
		{ref: "registry.example/charts/cert-manager@sha256:" + hex, name: "cert-manager", version: "sha256:" + hex,
			keys: []string{"registry.example/charts/cert-manager@sha256:" + hex, "registry.example/charts/cert-manager"}},
		{ref: "registry.example:5000/charts/cert-manager:v1.13.3", name: "cert-manager", version: "v1.13.3",
			keys: []string{"registry.example:5000/charts/cert-manager:v1.13.3", "registry.example:5000/charts/cert-manager"}},
	}
	for _, tt := range tests {
		r, ok := describeRemote(access{Type: "ociArtifact", ImageReference: tt.ref})
		if !ok || r.chartName != tt.name || r.chartVersion != tt.version || !slices.Equal(r.chartKeys, tt.keys) {
			t.Errorf("describeRemote(%q) = %q, %q, %q; want %q, %q, %q", tt.ref, r.chartName, r.chartVersion, r.chartKeys, tt.name, tt.version, tt.keys)
		}
	}
}
