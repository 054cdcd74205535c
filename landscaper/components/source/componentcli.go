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

// SourcesFile is the file of sources that the component-cli layout keeps
// next to the base descriptor (`component-cli component-archive sources
// add`), one source a document, as in resources.yaml.
const SourcesFile = "sources.yaml"

// componentCLIFolder is a folder in component-cli's layout: a base
// component-descriptor.yaml (often without resources) and resources.yaml
// and/or sources.yaml, one element a document, each with an access or an
// input (dir, file, helm) as in a component constructor.
type componentCLIFolder struct {
	root Root
	dir  string
}

// ComponentCLIFolder returns the component-cli folder dir of root: its
// version is the descriptor with the resources of resources.yaml and the
// sources of sources.yaml added (one of the same name and extra identity
// replaced), inputs built as a constructor builds them, paths relative to
// the folder.
func ComponentCLIFolder(root Root, dir string) Source {
	return &componentCLIFolder{root: root, dir: dir}
}

func (c *componentCLIFolder) Origin() string {
	return "component-cli folder " + c.root.Show(c.dir)
}

// Rank is a constructor's: the folder's resources are built from their
// inputs.
func (c *componentCLIFolder) Rank() Rank { return RankConstructor }

// Load reads the descriptor and adds the resources and sources.
func (c *componentCLIFolder) Load() ([]*Version, error) {
	archive := blobDir{root: c.root, dir: path.Join(c.dir, blobsDir)}
	v, err := readDescriptor(c.root, path.Join(c.dir, DescriptorFile), archive)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Origin(), err)
	}
	cd := v.Descriptor
	built := blobMap{}
	b := &builder{root: c.root, base: c.dir, component: &ccComponent{Name: cd.GetName(), Version: cd.GetVersion()}, blobs: built}
	resources, err := c.elements(ResourcesFile)
	if err != nil {
		return nil, err
	}
	for i := range resources {
		res, err := b.resource(&resources[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: resource %q: %w", c.Origin(), ResourcesFile, resources[i].Name, err)
		}
		cd.Resources = setResource(cd.Resources, res)
	}
	sources, err := c.elements(SourcesFile)
	if err != nil {
		return nil, err
	}
	for i := range sources {
		src, err := b.source(&sources[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: source %q: %w", c.Origin(), SourcesFile, sources[i].Name, err)
		}
		cd.Sources = setSource(cd.Sources, src)
	}
	if err := cdv2.DefaultComponent(cd); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Origin(), err)
	}
	v.Origin, v.Blobs = c.Origin(), eitherBlobs{built, archive}
	return []*Version{v}, nil
}

// elements reads the documents of the folder's file name (resources.yaml or
// sources.yaml); a file that is not there has none.
func (c *componentCLIFolder) elements(name string) ([]ccElement, error) {
	data, err := fs.ReadFile(c.root.FS, path.Join(c.dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Origin(), err)
	}
	elems, err := parseResources(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", c.Origin(), name, err)
	}
	return elems, nil
}

// missingDescriptor is a folder with component-cli's resources.yaml or
// sources.yaml but without the base component-descriptor.yaml that
// `component-cli component-archive create` writes: it holds no version, and
// loading it says what to add.
type missingDescriptor struct {
	root Root
	dir  string
	// file is the component-cli file found (resources.yaml or sources.yaml).
	file string
}

func (m *missingDescriptor) Origin() string { return "component-cli folder " + m.root.Show(m.dir) }

// Rank is a constructor's, as for a complete folder.
func (m *missingDescriptor) Rank() Rank { return RankConstructor }

// Load fails: the folder needs its base descriptor.
func (m *missingDescriptor) Load() ([]*Version, error) {
	return nil, fmt.Errorf("%s: %s has no %s next to it, the base descriptor that `component-cli component-archive create` writes: "+
		"write %s with meta.schemaVersion v2 and the component's name, version, provider and repositoryContexts (docs/components.md)",
		m.Origin(), m.file, DescriptorFile, m.root.Show(path.Join(m.dir, DescriptorFile)))
}

// IsComponentCLIFile tells whether the file name with content data is
// component-cli's resources.yaml or sources.yaml: its name is one of them
// and each of its documents is an element (type, name, and an input or an
// access), not a Landscaper object. ${VAR}s, which component-cli
// substitutes, do not count against it.
func IsComponentCLIFile(name string, data []byte) bool {
	if base := path.Base(name); base != ResourcesFile && base != SourcesFile {
		return false
	}
	docs, err := splitYAML(data)
	if err != nil {
		return false
	}
	n := 0
	for _, doc := range docs {
		var m map[string]any
		if err := yaml.Unmarshal(doc, &m); err != nil {
			return false
		}
		if m == nil {
			continue
		}
		_, hasAPIVersion := m["apiVersion"]
		_, hasKind := m["kind"]
		_, hasInput := m["input"]
		_, hasAccess := m["access"]
		if hasAPIVersion || hasKind || m["type"] == nil || m["name"] == nil || !hasInput && !hasAccess {
			return false
		}
		n++
	}
	return n > 0
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

// setSource adds src to list, replacing the source of the same name and
// extra identity, as component-cli's sources add does.
func setSource(list []cdv2.Source, src cdv2.Source) []cdv2.Source {
	for i, s := range list {
		if s.Name == src.Name && maps.Equal(s.ExtraIdentity, src.ExtraIdentity) {
			list[i] = src
			return list
		}
	}
	return append(list, src)
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
