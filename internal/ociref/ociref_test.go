package ociref

import (
	"slices"
	"testing"
)

func TestSplitAndMapKeys(t *testing.T) {
	const d = "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
	tests := []struct {
		ref, repo, tag, digest string
		keys                   []string
	}{
		{"registry.example/charts/app:v1.2@" + d, "registry.example/charts/app", "v1.2", d,
			[]string{"registry.example/charts/app:v1.2@" + d, "registry.example/charts/app:v1.2", "registry.example/charts/app"}},
		{"registry.example/charts/app@" + d, "registry.example/charts/app", "", d,
			[]string{"registry.example/charts/app@" + d, "registry.example/charts/app"}},
		{"registry.example:5000/charts/app:v1.2", "registry.example:5000/charts/app", "v1.2", "",
			[]string{"registry.example:5000/charts/app:v1.2", "registry.example:5000/charts/app"}},
		{"registry.example:5000/charts/app", "registry.example:5000/charts/app", "", "",
			[]string{"registry.example:5000/charts/app"}},
		{"app", "app", "", "", []string{"app"}},
	}
	for _, tt := range tests {
		repo, tag, digest := Split(tt.ref)
		if repo != tt.repo || tag != tt.tag || digest != tt.digest {
			t.Errorf("Split(%q) = %q, %q, %q; want %q, %q, %q", tt.ref, repo, tag, digest, tt.repo, tt.tag, tt.digest)
		}
		if keys := MapKeys(tt.ref); !slices.Equal(keys, tt.keys) {
			t.Errorf("MapKeys(%q) = %q, want %q", tt.ref, keys, tt.keys)
		}
	}
}
