package funcs

import (
	"fmt"
	"strings"
)

// dockerHubPrefixes are the repository prefixes Landscaper strips from
// references to Docker Hub, longest first.
var dockerHubPrefixes = []string{"index.docker.io/library/", "docker.io/library/", "index.docker.io/", "docker.io/"}

// ParseOCIRef splits an OCI reference into repository and version (tag, or
// digest after '@'), as Landscaper's parseOCIRef does:
// "host:5000/repo/image:1.0.0" gives ["host:5000/repo/image", "1.0.0"] and
// "repo/image@sha256:ab" gives ["repo/image", "sha256:ab"]. Docker Hub
// prefixes are dropped. A reference without any ':' (no tag, no digest, no
// port) is an error, as in Landscaper.
func ParseOCIRef(ref string) ([2]string, error) {
	if !strings.Contains(ref, ":") {
		return [2]string{}, fmt.Errorf("invalid OCI reference %q: want <repository>:<tag> or <repository>@<digest>", ref)
	}
	repo, version := ref, ""
	if at := strings.Index(ref, "@"); at >= 0 {
		repo, version = ref[:at], ref[at+1:]
	} else if colon := strings.LastIndex(ref, ":"); colon > strings.LastIndex(ref, "/") {
		repo, version = ref[:colon], ref[colon+1:]
	}
	if repo == "" || strings.ContainsAny(repo, " \t\n") {
		return [2]string{}, fmt.Errorf("invalid OCI reference %q: bad repository %q", ref, repo)
	}
	for _, p := range dockerHubPrefixes {
		if strings.HasPrefix(repo, p) {
			repo = strings.TrimPrefix(repo, p)
			break
		}
	}
	return [2]string{repo, version}, nil
}

// OCIRefRepo returns the repository of an OCI reference (see ParseOCIRef).
func OCIRefRepo(ref string) (string, error) {
	parts, err := ParseOCIRef(ref)
	return parts[0], err
}

// OCIRefVersion returns the tag or digest of an OCI reference (see
// ParseOCIRef), or "" when it has neither.
func OCIRefVersion(ref string) (string, error) {
	parts, err := ParseOCIRef(ref)
	return parts[1], err
}
