package source

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components/descriptor"
)

// InlineSpec is a repository context of type inline: component
// descriptors (and blobs) in YAML file systems.
type InlineSpec struct {
	FileSystem      json.RawMessage `json:"fileSystem,omitempty"`
	CompDescDirPath string          `json:"compDescDirPath,omitempty"`
	BlobFs          json.RawMessage `json:"blobFs,omitempty"`
	BlobFsMode      string          `json:"blobFsMode"`
	BlobDirPath     string          `json:"blobDirPath,omitempty"`
}

// blobFsModeContext takes an inline repository's blobs from the local
// registry root.
const blobFsModeContext = "context"

// InlineRepository returns the repository that spec describes. Its blobs
// come from blobFs, else fileSystem, or with blobFsMode "context" from
// localRoot.
func InlineRepository(spec InlineSpec, localRoot Root) (Source, error) {
	files, err := yamlFS(spec.FileSystem, "fileSystem")
	if err != nil {
		return nil, err
	}
	blobRoot := Root{FS: files, Display: "inline repository"}
	switch {
	case spec.BlobFsMode == blobFsModeContext:
		blobRoot = localRoot
	case len(spec.BlobFs) > 0:
		blobFiles, err := yamlFS(spec.BlobFs, "blobFs")
		if err != nil {
			return nil, err
		}
		blobRoot = Root{FS: blobFiles, Display: "inline repository blobFs"}
	}
	return &inlineRepo{root: Root{FS: files, Display: "inline repository"}, dir: CleanInside(spec.CompDescDirPath),
		blobs: blobDir{root: blobRoot, dir: CleanInside(spec.BlobDirPath)}}, nil
}

// yamlFS reads a YAML file system of an inline repository.
func yamlFS(raw json.RawMessage, field string) (fs.FS, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return fstest.MapFS{}, nil
	}
	files, err := blueprint.ReadFilesystem(raw)
	if err != nil {
		return nil, fmt.Errorf("inline repository %s: %w", field, err)
	}
	return files, nil
}

type inlineRepo struct {
	root  Root
	dir   string
	blobs blobDir
}

func (r *inlineRepo) Origin() string { return "inline repository" }

func (r *inlineRepo) Rank() Rank { return RankArchive }

func (r *inlineRepo) Load() ([]*Version, error) {
	entries, err := fs.ReadDir(r.root.FS, r.dir)
	if err != nil {
		return nil, fmt.Errorf("%s: compDescDirPath: %w", r.Origin(), err)
	}
	var out []*Version
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		v, err := readDescriptor(r.root, path.Join(r.dir, e.Name()), r.blobs)
		if err != nil {
			return nil, fmt.Errorf("%s: error indexing repository: %w", r.Origin(), err)
		}
		v.ContextRequired = true
		out = append(out, v)
	}
	return out, nil
}

// installationInline is an installation's spec.componentDescriptor.inline
// with the descriptors nested in its component references' labels.
type installationInline struct {
	root  *cdv2.ComponentDescriptor
	local Root
}

// Inline returns the in-memory repository of an installation's inline
// component descriptor: it and, transitively, every descriptor in the label
// landscaper.gardener.cloud/component-descriptor of a component reference.
// Their local blobs are files in localRoot, as in Landscaper.
func Inline(cd *cdv2.ComponentDescriptor, localRoot Root) Source {
	return &installationInline{root: cd, local: localRoot}
}

func (i *installationInline) Origin() string {
	return "inline component descriptor " + i.root.GetName() + ":" + i.root.GetVersion()
}

func (i *installationInline) Rank() Rank { return RankArchive }

// Load returns the inline descriptor and, when the root component itself
// carries the label landscaper.gardener.cloud/component-descriptor (whatever
// its value), the descriptors nested in its references' labels, as
// Landscaper's GetFlatList expands them only then; otherwise references are
// looked up in the repositories as any others.
func (i *installationInline) Load() ([]*Version, error) {
	var out []*Version
	seen := map[Key]bool{}
	root := i.root.DeepCopy()
	_, expand := root.Labels.Get(lsv1alpha1.InlineComponentDescriptorLabel)
	err := i.collect(root, descriptor.SchemaV2, expand, seen, &out)
	return out, err
}

// collect adds cd and, with expand, the descriptors nested in its
// references.
func (i *installationInline) collect(cd *cdv2.ComponentDescriptor, schema string, expand bool, seen map[Key]bool, out *[]*Version) error {
	if err := cdv2.DefaultComponent(cd); err != nil {
		return err
	}
	v := &Version{Descriptor: cd, Schema: schema, Origin: i.Origin(), Blobs: blobDir{root: i.local, dir: "."}, ContextRequired: true}
	if seen[v.Key()] {
		return nil
	}
	seen[v.Key()] = true
	*out = append(*out, v)
	if !expand {
		return nil
	}
	for _, ref := range cd.ComponentReferences {
		raw, ok := ref.Labels.Get(lsv1alpha1.InlineComponentDescriptorLabel)
		if !ok {
			continue
		}
		nested, nestedSchema, err := descriptor.Decode(raw)
		if err != nil {
			return fmt.Errorf("component reference %q of %s: label %s: %w", ref.Name, v.Key(), lsv1alpha1.InlineComponentDescriptorLabel, err)
		}
		if err := i.collect(nested, nestedSchema, true, seen, out); err != nil {
			return err
		}
	}
	return nil
}
