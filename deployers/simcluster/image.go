package simcluster

import (
	"fmt"

	dockerref "github.com/distribution/reference"
)

// ReasonInvalidImageName is the kubelet's waiting reason of a container
// whose image it cannot parse (pkg/kubelet/images ErrInvalidImageName).
const ReasonInvalidImageName = "InvalidImageName"

// invalidImage is the kubelet's message for a container image it cannot
// parse, or "" for one it can. kube-apiserver stores any image without
// surrounding blanks; the kubelet parses it with distribution/reference's
// ParseNormalizedNamed before it pulls (image_manager.go,
// EnsureImageExists and applyDefaultImageTag), and the container never
// starts. A chart that joins a repository and a tag makes such names of a
// reference pinned by digest (repo:sha256:HEX, repo:tag@sha256:HEX:tag).
// An empty image is left to the API server's validation.
func invalidImage(image string) string {
	if image == "" {
		return ""
	}
	if _, err := dockerref.ParseNormalizedNamed(image); err != nil {
		return fmt.Sprintf("Failed to apply default image tag %q: couldn't parse image reference %q: %v", image, image, err)
	}
	return ""
}
