package funcs

import "testing"

func TestParseOCIRef(t *testing.T) {
	tests := []struct {
		name, ref, repo, version, err string
	}{
		{name: "tag", ref: "ghcr.io/acme/app:1.0.0", repo: "ghcr.io/acme/app", version: "1.0.0"},
		{name: "port and tag", ref: "host:5000/myrepo/myimage:1.0.0", repo: "host:5000/myrepo/myimage", version: "1.0.0"},
		{name: "digest", ref: "host:5000/repo@sha256:abc", repo: "host:5000/repo", version: "sha256:abc"},
		{name: "port without tag", ref: "host:5000/repo", repo: "host:5000/repo", version: ""},
		{name: "docker hub library", ref: "docker.io/library/nginx:1.25", repo: "nginx", version: "1.25"},
		{name: "docker hub index", ref: "index.docker.io/acme/app:2", repo: "acme/app", version: "2"},
		{name: "no colon", ref: "nginx", err: `invalid OCI reference "nginx": want <repository>:<tag> or <repository>@<digest>`},
		{name: "empty repository", ref: ":1.0", err: `invalid OCI reference ":1.0": bad repository ""`},
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
