package components

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components/tarfs"
)

// Resource types Landscaper reads.
const (
	// BlueprintType and OldBlueprintType are blueprint resources.
	BlueprintType    = "landscaper.gardener.cloud/blueprint"
	OldBlueprintType = "blueprint"
	// JSONSchemaType is a JSON schema resource.
	JSONSchemaType = "landscaper.gardener.cloud/jsonschema"
)

// blueprintMediaTypes are the access media types OCM's blueprint
// downloader accepts.
var blueprintMediaTypes = map[string]bool{
	"application/x-tar": true, "application/x-tgz": true, "application/x-tar+gzip": true,
	"application/vnd.gardener.landscaper.blueprint.v1+tar":            true,
	"application/vnd.gardener.landscaper.blueprint.v1+tar+gzip":       true,
	"application/vnd.gardener.landscaper.blueprint.layer.v1.tar":      true,
	"application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip": true,
	"application/vnd.oci.image.manifest.v1+tar":                       true,
	"application/vnd.oci.image.manifest.v1+tar+gzip":                  true,
	"application/vnd.docker.distribution.manifest.v2+tar":             true,
	"application/vnd.docker.distribution.manifest.v2+tar+gzip":        true,
}

// ReadBlueprint reads the blueprint in c, the content of res, as
// Landscaper's blueprint handler does: by resource type, with a media type
// its downloader accepts, a folder or a tar (gzip or not) with
// blueprint.yaml at its root, or an OCI artifact holding such a layer.
func ReadBlueprint(res cdv2.Resource, c *Content) (*blueprint.Blueprint, error) {
	if res.Type != BlueprintType && res.Type != OldBlueprintType {
		return nil, fmt.Errorf("no handler found for resource type %s", res.Type)
	}
	// A local blob has the media type its access states, and OCM's
	// downloader takes none for an empty one.
	if (c.MediaType != "" || c.LocalBlob) && !blueprintMediaTypes[c.MediaType] {
		return nil, mediaTypeError(c.MediaType)
	}
	fsys := c.Dir
	if fsys == nil {
		data, err := c.Bytes()
		if err != nil {
			return nil, err
		}
		if fsys, err = untar(data); err != nil {
			return nil, errors.New("artifact does not match blueprint downloader (check config media type)")
		}
	}
	fsys = blueprintLayer(fsys)
	bp, err := blueprint.FromFS(fsys)
	if err != nil {
		return nil, fmt.Errorf("unable to read blueprint definition: %w", err)
	}
	bp.Source = c.Origin
	return bp, nil
}

// mediaTypeError is Landscaper's error for a blueprint whose media type OCM's
// blueprint downloader takes none of (pkg/components/ocmlib/
// resourcetypehandlers/blueprint/handler.go), with the media type that was
// seen and two that are taken: Landscaper's message alone does not say
// what is wrong with a near miss such as "...blueprint.v1.tar+gzip".
func mediaTypeError(mediaType string) error {
	const msg = "artifact does not match blueprint downloader (check config media type)"
	const taken = "application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip"
	if mediaType == "" {
		return fmt.Errorf("%s: the resource's access has no mediaType; OCM's blueprint downloader takes e.g. %s", msg, taken)
	}
	return fmt.Errorf("%s: media type %q is none of those OCM's blueprint downloader takes, e.g. %s or "+
		"application/vnd.gardener.landscaper.blueprint.v1+tar+gzip", msg, mediaType, taken)
}

// untar reads a tar archive, gzip or not.
func untar(data []byte) (fstest.MapFS, error) {
	plain, err := tarfs.Gunzip(data)
	if err != nil {
		return nil, err
	}
	if !tarfs.IsTar(plain) {
		return nil, errors.New("not a tar archive")
	}
	return tarfs.ReadTar(plain)
}

// blueprintLayer returns fsys, or, when fsys is an OCI artifact (blobs/
// without blueprint.yaml), the layer in it that holds blueprint.yaml.
func blueprintLayer(fsys fs.FS) fs.FS {
	if _, err := fs.Stat(fsys, "blueprint.yaml"); err == nil {
		return fsys
	}
	if layer := findLayer(fsys, func(files fs.FS) bool {
		_, err := fs.Stat(files, "blueprint.yaml")
		return err == nil
	}); layer != nil {
		return layer
	}
	return fsys
}

// findLayer returns the first blob in blobs/ of fsys that is a tar archive
// for which ok holds.
func findLayer(fsys fs.FS, ok func(fs.FS) bool) fs.FS {
	entries, err := fs.ReadDir(fsys, "blobs")
	if err != nil {
		return nil
	}
	for _, e := range entries {
		data, err := fs.ReadFile(fsys, path.Join("blobs", e.Name()))
		if err != nil {
			continue
		}
		if files, err := untar(data); err == nil && ok(files) {
			return files
		}
	}
	return nil
}

// ReadJSONSchema reads the JSON schema in c, the content of res, as
// Landscaper does: by resource type, gzip or not, whatever the media type.
func ReadJSONSchema(res cdv2.Resource, c *Content) ([]byte, error) {
	if res.Type != JSONSchemaType {
		return nil, fmt.Errorf("no handler found for resource type %s", res.Type)
	}
	data, err := c.Bytes()
	if err != nil {
		return nil, err
	}
	return tarfs.Gunzip(data)
}

// Chart is a helm chart, either a folder or an archive.
type Chart struct {
	// Dir is the chart folder (Chart.yaml at its root), or nil.
	Dir fs.FS
	// Archive is a chart archive (tgz, the chart in a top folder), or nil.
	Archive []byte
	// Origin says where it is.
	Origin string
}

// ReadChart reads the helm chart in c: a chart folder, a chart archive
// (tgz or tar), or an OCI artifact (as the ocm CLI stores a helm input)
// holding a chart layer.
func ReadChart(c *Content) (*Chart, error) {
	if c.Dir != nil {
		if dir := chartDir(c.Dir); dir != nil {
			return &Chart{Dir: dir, Origin: c.Origin}, nil
		}
	}
	data, err := c.Bytes()
	if err != nil {
		return nil, err
	}
	files, err := untar(data)
	if err != nil {
		return nil, fmt.Errorf("%s is no helm chart (want a chart folder, or a tgz or tar archive of one)", c.Origin)
	}
	if dir := chartDir(files); dir != nil {
		return &Chart{Dir: dir, Origin: c.Origin}, nil
	}
	if layer := findLayer(files, func(f fs.FS) bool { return chartDir(f) != nil }); layer != nil {
		return &Chart{Dir: chartDir(layer), Origin: c.Origin}, nil
	}
	return nil, fmt.Errorf("%s holds no Chart.yaml: it is no helm chart", c.Origin)
}

// chartDir returns the chart folder in fsys: fsys itself with Chart.yaml,
// or its only top folder with one.
func chartDir(fsys fs.FS) fs.FS {
	if _, err := fs.Stat(fsys, "Chart.yaml"); err == nil {
		return fsys
	}
	matches, _ := fs.Glob(fsys, "*/Chart.yaml")
	if len(matches) != 1 {
		return nil
	}
	sub, err := fs.Sub(fsys, strings.TrimSuffix(matches[0], "/Chart.yaml"))
	if err != nil {
		return nil
	}
	return sub
}
