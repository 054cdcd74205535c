package funcs

import (
	"fmt"
	"path"
	"strings"

	dockerreference "github.com/distribution/reference"
)

// Docker Hub's domains: the reference library normalizes to dockerHubDomain,
// which Landscaper's oci.ParseRef maps to the legacy one.
const (
	dockerHubDomain       = "docker.io"
	dockerHubLegacyDomain = "index.docker.io"
)

// ParseOCIRef splits an OCI reference into repository and version (tag, or
// digest), as Landscaper's ParseOCIReference does with oci.ParseRef, which is
// dockerreference.ParseDockerRef of the distribution/reference library
// Landscaper pins: a "scheme://" prefix is dropped, the reference is
// validated and normalized (a missing tag is "latest"; of a tag and a
// digest only the digest is kept), and the Docker Hub prefixes
// "index.docker.io/library/" and "index.docker.io/" are dropped again.
// "host:5000/repo/image:1.0.0" gives ["host:5000/repo/image", "1.0.0"],
// "repo/image@sha256:<hex>" gives ["repo/image", "sha256:<hex>"]. A
// reference without any ':' (no tag, no digest, no port) is an error, as in
// Landscaper.
func ParseOCIRef(ref string) ([2]string, error) {
	name := ref
	if i := strings.Index(name, "://"); i >= 0 {
		name = name[i+3:]
	}
	parsed, err := dockerreference.ParseDockerRef(name)
	if err != nil {
		// Landscaper panics with oci.ParseRef's error.
		return [2]string{}, Worded(fmt.Errorf("invalid OCI reference %q: %w", ref, err), err.Error())
	}
	if !strings.Contains(ref, ":") {
		return [2]string{}, Worded(fmt.Errorf("invalid OCI reference %q: want <repository>:<tag> or <repository>@<digest>", ref),
			"invalid reference")
	}
	host := dockerreference.Domain(parsed)
	if host == dockerHubDomain {
		host = dockerHubLegacyDomain
	}
	repo := path.Join(host, dockerreference.Path(parsed))
	if strings.HasPrefix(repo, dockerHubLegacyDomain+"/library/") {
		repo = strings.TrimPrefix(repo, dockerHubLegacyDomain+"/library/")
	} else {
		repo = strings.TrimPrefix(repo, dockerHubLegacyDomain+"/")
	}
	switch r := parsed.(type) {
	case dockerreference.Tagged:
		return [2]string{repo, r.Tag()}, nil
	case dockerreference.Digested:
		return [2]string{repo, r.Digest().String()}, nil
	}
	return [2]string{repo, ""}, nil
}

// OCIRefRepo returns the repository of an OCI reference (see ParseOCIRef).
func OCIRefRepo(ref string) (string, error) {
	parts, err := ParseOCIRef(ref)
	return parts[0], err
}

// OCIRefVersion returns the tag or digest of an OCI reference (see
// ParseOCIRef).
func OCIRefVersion(ref string) (string, error) {
	parts, err := ParseOCIRef(ref)
	return parts[1], err
}
