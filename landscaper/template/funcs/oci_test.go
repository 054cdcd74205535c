package funcs

import "testing"

func TestParseOCIRef(t *testing.T) {
	tests := []struct {
		name, ref, repo, version, err string
	}{
		{name: "tag", ref: "ghcr.io/acme/app:1.0.0", repo: "ghcr.io/acme/app", version: "1.0.0"},
		{name: "port and tag", ref: "host:5000/myrepo/myimage:1.0.0", repo: "host:5000/myrepo/myimage", version: "1.0.0"},
		{name: "digest", ref: "host:5000/repo@sha256:6637a0a2e3d0d93e3ee1c2e8e0d2fd5ae0b31ab7e0a8a8d4f5c9b7c9c2e5f2d1", repo: "host:5000/repo", version: "sha256:6637a0a2e3d0d93e3ee1c2e8e0d2fd5ae0b31ab7e0a8a8d4f5c9b7c9c2e5f2d1"},
		{name: "port without tag is latest", ref: "host:5000/repo", repo: "host:5000/repo", version: "latest"},
		{name: "tag and digest keep the digest", ref: "host:5000/repo:1.0@sha256:6637a0a2e3d0d93e3ee1c2e8e0d2fd5ae0b31ab7e0a8a8d4f5c9b7c9c2e5f2d1", repo: "host:5000/repo", version: "sha256:6637a0a2e3d0d93e3ee1c2e8e0d2fd5ae0b31ab7e0a8a8d4f5c9b7c9c2e5f2d1"},
		{name: "scheme dropped", ref: "https://host.example/repo:1", repo: "host.example/repo", version: "1"},
		{name: "docker hub library", ref: "docker.io/library/nginx:1.25", repo: "nginx", version: "1.25"},
		{name: "docker hub short", ref: "nginx:1.25", repo: "nginx", version: "1.25"},
		{name: "docker hub index", ref: "index.docker.io/acme/app:2", repo: "acme/app", version: "2"},
		{name: "eu.gcr.io", ref: "eu.gcr.io/gardener-project/landscaper/app:v0.1.0", repo: "eu.gcr.io/gardener-project/landscaper/app", version: "v0.1.0"},
		{name: "no colon", ref: "nginx", err: `invalid OCI reference "nginx": want <repository>:<tag> or <repository>@<digest>`},
		{name: "upper case", ref: "MyImage:1", err: `invalid OCI reference "MyImage:1": invalid reference format: repository name (library/MyImage) must be lowercase`},
		{name: "short digest", ref: "myimage@sha256:abc", err: `invalid OCI reference "myimage@sha256:abc": invalid reference format`},
		{name: "empty repository", ref: ":1.0", err: `invalid OCI reference ":1.0": invalid reference format`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseOCIRef(tt.ref)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil || got[0] != tt.repo || got[1] != tt.version {
				t.Fatalf("ParseOCIRef(%q) = %q, %v; want [%s %s]", tt.ref, got, err, tt.repo, tt.version)
			}
			repo, _ := OCIRefRepo(tt.ref)
			version, _ := OCIRefVersion(tt.ref)
			if repo != tt.repo || version != tt.version {
				t.Errorf("OCIRefRepo/OCIRefVersion = %q, %q", repo, version)
			}
		})
	}
}

// Landscaper's ParseOCIReference panics with oci.ParseRef's error, or with
// "invalid reference" for a reference without ':'
// (pkg/landscaper/installations/executions/template/helper.go): those are
// its GoTemplate messages.
func TestParseOCIRefLandscaperMessage(t *testing.T) {
	for ref, want := range map[string]string{
		"nginx":     "invalid reference",
		"MyImage:1": "invalid reference format: repository name (library/MyImage) must be lowercase",
	} {
		_, err := ParseOCIRef(ref)
		lw, ok := err.(interface{ LandscaperMessage() string })
		if !ok || lw.LandscaperMessage() != want {
			t.Errorf("ParseOCIRef(%q): err = %v, want Landscaper's message %q", ref, err, want)
		}
	}
}
