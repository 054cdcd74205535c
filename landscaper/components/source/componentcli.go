package source

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"sigs.k8s.io/yaml"
)

// ResourcesFile is the file of resources that the component-cli layout
// keeps next to a base component-descriptor.yaml (`component-cli
// component-archive resources add`, `landscaper-cli component-cli
// component-archive DIR OUT -r resources.yaml`).
const ResourcesFile = "resources.yaml"

// componentCLIFolder is a folder in component-cli's layout: a base
// component-descriptor.yaml (often without resources) and resources.yaml,
// one resource a document, each with an access or an input (dir, file,
// helm) as in a component constructor.
type componentCLIFolder struct {
	root Root
	dir  string
}

// ComponentCLIFolder returns the component-cli folder dir of root: its
// version is the descriptor with the resources of resources.yaml added (one
// of the same name and extra identity replaced), inputs built as a
// constructor builds them, paths relative to the folder.
func ComponentCLIFolder(root Root, dir string) Source {
	return &componentCLIFolder{root: root, dir: dir}
}

func (c *componentCLIFolder) Origin() string {
	return "component-cli folder " + c.root.Show(c.dir)
}

// Rank is a constructor's: the folder's resources are built from their
// inputs.
func (c *componentCLIFolder) Rank() Rank { return RankConstructor }

// Load reads the descriptor and adds the resources.
func (c *componentCLIFolder) Load() ([]*Version, error) {
	archive := blobDir{root: c.root, dir: path.Join(c.dir, blobsDir)}
	v, err := readDescriptor(c.root, path.Join(c.dir, DescriptorFile), archive)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Origin(), err)
	}
	data, err := fs.ReadFile(c.root.FS, path.Join(c.dir, ResourcesFile))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Origin(), err)
	}
	elems, err := parseResources(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", c.Origin(), ResourcesFile, err)
	}
	cd := v.Descriptor
	built := blobMap{}
	b := &builder{root: c.root, base: c.dir, component: &ccComponent{Name: cd.GetName(), Version: cd.GetVersion()}, blobs: built}
	for i := range elems {
		res, err := b.resource(&elems[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: resource %q: %w", c.Origin(), ResourcesFile, elems[i].Name, err)
		}
		cd.Resources = setResource(cd.Resources, res)
	}
	if err := cdv2.DefaultComponent(cd); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Origin(), err)
	}
	v.Origin, v.Blobs = c.Origin(), eitherBlobs{built, archive}
	return []*Version{v}, nil
}

// parseResources reads the resource documents of a resources.yaml.
func parseResources(data []byte) ([]ccElement, error) {
	docs, err := jsonDocuments(data, "component-cli substitutes from the environment")
	if err != nil {
		return nil, err
	}
	var out []ccElement
	for _, doc := range docs {
		var e ccElement
		if err := yaml.UnmarshalStrict(doc.yaml, &e); err != nil {
			return nil, fmt.Errorf("document %d: %w", doc.n, err)
		}
		if e.Name == "" {
			return nil, fmt.Errorf("document %d: a resource needs a name", doc.n)
		}
		out = append(out, e)
	}
	return out, nil
}

// setResource adds res to list, replacing the resource of the same name
// and extra identity, as component-cli's resources add does.
func setResource(list []cdv2.Resource, res cdv2.Resource) []cdv2.Resource {
	for i, r := range list {
		if r.Name == res.Name && maps.Equal(r.ExtraIdentity, res.ExtraIdentity) {
			list[i] = res
			return list
		}
	}
	return append(list, res)
}

// eitherBlobs serves a blob from the first Blobs that has it.
type eitherBlobs []Blobs

// Blob implements Blobs.
func (e eitherBlobs) Blob(ref string) (*Blob, error) {
	var err error
	for _, b := range e {
		var blob *Blob
		if blob, err = b.Blob(ref); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return blob, err
		}
	}
	return nil, err
}
