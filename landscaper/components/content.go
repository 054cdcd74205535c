package components

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/components/source"
	"github.com/lscli/lscli/landscaper/components/tarfs"
)

// Purpose says what a resource's content is read for; it decides which
// config file map can stand in for a registry.
type Purpose int

// The purposes.
const (
	// ForContent is getResourceContent and anything else.
	ForContent Purpose = iota
	// ForBlueprint is a blueprint (spec.blueprint.ref, cd:// references).
	ForBlueprint
	// ForSchema is a JSON schema ($ref: cd://...).
	ForSchema
	// ForChart is a helm chart (chart.resourceRef).
	ForChart
)

// Content is the content of a resource, read locally.
type Content struct {
	// MediaType is the media type the access states, "" if none.
	MediaType string
	// Origin says where the content is, for messages.
	Origin string
	// Dir holds the content when it is a folder; nil for a file.
	Dir fs.FS
	// Chart is true when the content is a helm chart kept as a chart (a
	// constructor's helm input, a chart folder or archive).
	Chart bool
	// LocalBlob is true for the local blob of a version, whose media type
	// is only what its access states: an empty one is none.
	LocalBlob bool

	read func() ([]byte, error)
}

// Bytes returns the content; a folder packed as tar.
func (c *Content) Bytes() ([]byte, error) { return c.read() }

// access holds the fields of the access types lscli reads.
type access struct {
	Type           string `json:"type"`
	LocalReference string `json:"localReference"`
	FileName       string `json:"fileName"`
	MediaType      string `json:"mediaType"`
	ImageReference string `json:"imageReference"`
	HelmRepository string `json:"helmRepository"`
	HelmChart      string `json:"helmChart"`
	Ref            string `json:"ref"`
	Digest         string `json:"digest"`
	Reference      string `json:"reference"`
	RepoURL        string `json:"repoUrl"`
	Commit         string `json:"commit"`
	Bucket         string `json:"bucket"`
	Key            string `json:"key"`
	BucketName     string `json:"bucketName"`
	ObjectKey      string `json:"objectKey"`
	URL            string `json:"url"`
	Package        string `json:"package"`
	Version        string `json:"version"`
	GroupID        string `json:"groupId"`
	ArtifactID     string `json:"artifactId"`
	Repository     string `json:"repository"`
}

// accessKind is an access type without version, aliases folded.
func accessKind(t string) string {
	t = strings.TrimSuffix(t, "/v1")
	switch strings.ToLower(t) {
	case "localblob":
		return "localBlob"
	case "localfilesystemblob":
		return "localFilesystemBlob"
	case "ociartifact", "ociregistry", "ociimage":
		return "ociArtifact"
	case "helm":
		return "helm"
	case "github":
		return "gitHub"
	case "s3":
		return "s3"
	}
	return t
}

// Content reads the content of resource res of version v for purpose p:
// a local blob of v's source, or the local file or folder that the config
// file maps to its access.
func (r *Registry) Content(v *source.Version, res cdv2.Resource, p Purpose) (*Content, error) {
	if res.Access == nil {
		return nil, fmt.Errorf("component %s, resource %q has no access", v.Key(), res.Name)
	}
	var a access
	raw, err := res.Access.GetRaw()
	if err == nil {
		err = json.Unmarshal(raw, &a)
	}
	if err != nil {
		return nil, fmt.Errorf("component %s, resource %q: access: %w", v.Key(), res.Name, err)
	}
	if up, ok := v.Uploaded[a.ImageReference]; ok && accessKind(a.Type) == "ociArtifact" {
		return localContent(v, res, up.Reference, up.MediaType)
	}
	switch accessKind(a.Type) {
	case "localBlob":
		return localContent(v, res, a.LocalReference, a.MediaType)
	case "localFilesystemBlob":
		return localContent(v, res, a.FileName, a.MediaType)
	}
	return r.remoteContent(v, res, a, p)
}

// localContent reads a local blob of v.
func localContent(v *source.Version, res cdv2.Resource, ref, mediaType string) (*Content, error) {
	if v.Blobs == nil {
		return nil, fmt.Errorf("component %s, resource %q: its local blob %s is not shipped with %s, which is a descriptor "+
			"without blobs: keep the component archive (with its blobs folder) or the component constructor in the landscape",
			v.Key(), res.Name, ref, v.Origin)
	}
	b, err := v.Blobs.Blob(ref)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("component %s, resource %q: local blob %q of %s is missing (%s)%s", v.Key(), res.Name, ref, v.Origin,
				strings.TrimSuffix(err.Error(), ": "+fs.ErrNotExist.Error()), inlineBlobHint(v))
		}
		return nil, err
	}
	return &Content{MediaType: mediaType, Origin: b.Origin, Dir: b.Dir, Chart: b.Chart, LocalBlob: true, read: b.Bytes}, nil
}

// inlineBlobHint says where the blobs of inline descriptors are read.
func inlineBlobHint(v *source.Version) string {
	if !strings.HasPrefix(v.Origin, "inline component descriptor") {
		return ""
	}
	return "; Landscaper reads the blobs of inline component descriptors from its registry.local.rootPath, " +
		"lscli from local-registry-root in lscli.yaml (by default the first landscape folder)"
}

// pathContent reads the file or folder p of the host, which the config
// file maps.
func (r *Registry) pathContent(p, mediaType string) (*Content, error) {
	root, name, err := r.hostFS().open(p)
	if err != nil {
		return nil, err
	}
	c := &Content{MediaType: mediaType, Origin: root.Show(name)}
	if name == "." {
		c.Dir = root.FS
		c.read = func() ([]byte, error) { return tarfs.WriteTar(root.FS, ".", tarfs.Options{}) }
		return c, nil
	}
	c.read = func() ([]byte, error) { return fs.ReadFile(root.FS, name) }
	return c, nil
}
