package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/components/descriptor"
)

// ccComponent is a component in a component-constructor file.
type ccComponent struct {
	Name         string      `json:"name"`
	Version      string      `json:"version"`
	Provider     ccProvider  `json:"provider"`
	Labels       cdv2.Labels `json:"labels,omitempty"`
	CreationTime string      `json:"creationTime,omitempty"`
	Meta         struct {
		SchemaVersion string `json:"schemaVersion"`
	} `json:"meta"`
	Sources             []ccElement               `json:"sources"`
	References          []cdv2.ComponentReference `json:"references"`
	ComponentReferences []cdv2.ComponentReference `json:"componentReferences"`
	Resources           []ccElement               `json:"resources"`
}

type ccProvider struct {
	Name   string      `json:"name"`
	Labels cdv2.Labels `json:"labels,omitempty"`
}

// ccElement is a resource or source: an access, or an input lscli builds.
type ccElement struct {
	cdv2.IdentityObjectMeta `json:",inline"`
	Relation                cdv2.ResourceRelation         `json:"relation,omitempty"`
	SrcRefs                 []cdv2.SourceRef              `json:"srcRefs,omitempty"`
	SrcRef                  []cdv2.SourceRef              `json:"srcRef,omitempty"`
	Access                  *cdv2.UnstructuredTypedObject `json:"access,omitempty"`
	Input                   *input                        `json:"input,omitempty"`
}

// constructor is an OCM component-constructor file.
type constructor struct {
	root Root
	file string
}

// Constructor returns the component-constructor file name of root. Its
// component versions are built in memory: inputs of type dir, file and
// helm (a local chart) become local blobs, paths relative to the file.
func Constructor(root Root, name string) Source {
	return &constructor{root: root, file: name}
}

func (c *constructor) Origin() string { return "component constructor " + c.root.Show(c.file) }

func (c *constructor) Rank() Rank { return RankConstructor }

// Load parses the file and builds its component versions.
func (c *constructor) Load() ([]*Version, error) {
	data, err := fs.ReadFile(c.root.FS, c.file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Origin(), err)
	}
	comps, err := parseConstructor(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Origin(), err)
	}
	var out []*Version
	for i := range comps {
		v, err := c.build(&comps[i])
		if err != nil {
			return nil, fmt.Errorf("%s: component %s:%s: %w", c.Origin(), comps[i].Name, comps[i].Version, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseConstructor reads the components of every document of a
// constructor file: `components: [...]`, `component: {...}` or a bare
// component.
func parseConstructor(data []byte) ([]ccComponent, error) {
	docs, err := jsonDocuments(data, "the ocm CLI substitutes")
	if err != nil {
		return nil, err
	}
	var out []ccComponent
	for _, doc := range docs {
		comps, err := parseDocument(doc.json)
		if err != nil {
			return nil, fmt.Errorf("invalid component spec %d: %w", doc.n, err)
		}
		out = append(out, comps...)
	}
	if len(out) == 0 {
		return nil, errors.New("no components")
	}
	return out, nil
}

// parseDocument reads one document of a constructor file.
func parseDocument(js []byte) ([]ccComponent, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(js, &keys); err != nil {
		return nil, err
	}
	_, list := keys["components"]
	_, single := keys["component"]
	if (list || single) && len(keys) != 1 {
		return nil, errors.New("either a list or a single spec possible: components: [...], component: {...} or the component's fields")
	}
	var out []ccComponent
	switch {
	case list:
		err := json.Unmarshal(keys["components"], &out)
		return out, err
	case single:
		js = keys["component"]
	}
	var c ccComponent
	err := json.Unmarshal(js, &c)
	return append(out, c), err
}

// document is one non-empty YAML document of a file, as JSON; n counts
// from 1 among all documents.
type document struct {
	n          int
	yaml, json []byte
}

// jsonDocuments splits a constructor or resources file into its documents,
// leaving out empty ones. A ${...} variable is an error that says who would
// have substituted it (substitutes, e.g. "the ocm CLI substitutes").
func jsonDocuments(data []byte, substitutes string) ([]document, error) {
	if line := variableLine(data); line > 0 {
		return nil, fmt.Errorf("line %d uses a ${...} variable, which %s and lscli does not: write the value into the file", line, substitutes)
	}
	docs, err := splitYAML(data)
	if err != nil {
		return nil, err
	}
	var out []document
	for i, doc := range docs {
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if string(js) != "null" {
			out = append(out, document{n: i + 1, yaml: doc, json: js})
		}
	}
	return out, nil
}

// variableLine returns the line of the first "${" outside comment lines
// (whose first non-blank character is #: the value of no field), 0 when
// there is none.
func variableLine(data []byte) int {
	for n, line := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("#")) {
			continue
		}
		if bytes.Contains(line, []byte("${")) {
			return n + 1
		}
	}
	return 0
}

// build makes the component version of c.
func (c *constructor) build(cc *ccComponent) (*Version, error) {
	if cc.Name == "" || cc.Version == "" {
		return nil, errors.New("name and version are required")
	}
	if len(cc.References) > 0 && len(cc.ComponentReferences) > 0 {
		return nil, errors.New("only field references or componentReferences (deprecated) is possible")
	}
	cd := &cdv2.ComponentDescriptor{}
	cd.Metadata.Version = descriptor.SchemaV2
	cd.Name, cd.Version, cd.Labels, cd.CreationTime = cc.Name, cc.Version, cc.Labels, cc.CreationTime
	cd.Provider = descriptor.Provider(cc.Provider.Name, cc.Provider.Labels)
	cd.ComponentReferences = append(cc.References, cc.ComponentReferences...)
	blobs := blobMap{}
	b := &builder{root: c.root, base: path.Dir(c.file), component: cc, blobs: blobs}
	for i := range cc.Resources {
		res, err := b.resource(&cc.Resources[i])
		if err != nil {
			return nil, fmt.Errorf("resource %q: %w", cc.Resources[i].Name, err)
		}
		cd.Resources = append(cd.Resources, res)
	}
	for i := range cc.Sources {
		src, err := b.source(&cc.Sources[i])
		if err != nil {
			return nil, fmt.Errorf("source %q: %w", cc.Sources[i].Name, err)
		}
		cd.Sources = append(cd.Sources, src)
	}
	if err := cdv2.DefaultComponent(cd); err != nil {
		return nil, err
	}
	schema := descriptor.SchemaV2
	if cc.Meta.SchemaVersion == descriptor.SchemaV3 {
		schema = descriptor.SchemaV3
	}
	return &Version{Descriptor: cd, Schema: schema, Origin: c.Origin(), Blobs: blobs}, nil
}

// blobMap serves the blobs a constructor built, by local reference.
type blobMap map[string]*Blob

// Blob implements Blobs.
func (m blobMap) Blob(ref string) (*Blob, error) {
	if b, ok := m[ref]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("blob %s: %w", ref, fs.ErrNotExist)
}

// builder builds the elements of one constructor component.
type builder struct {
	root Root
	// base is the folder of the constructor file.
	base      string
	component *ccComponent
	blobs     blobMap
}

// resource builds a resource: an access as written, or an input as a
// local blob.
func (b *builder) resource(e *ccElement) (cdv2.Resource, error) {
	res := cdv2.Resource{IdentityObjectMeta: e.IdentityObjectMeta, Relation: e.Relation, SourceRef: e.SrcRefs}
	if len(res.SourceRef) == 0 {
		res.SourceRef = e.SrcRef
	}
	access, version, err := b.access(e)
	if err != nil {
		return res, err
	}
	res.Access = access
	if res.Relation == "" {
		res.Relation = cdv2.ExternalRelation
		if e.Input != nil {
			res.Relation = cdv2.LocalRelation
		}
	}
	if res.Version == "" && res.Relation == cdv2.LocalRelation {
		res.Version = version
	}
	if e.Input != nil {
		res.Digest = b.digest(access)
	}
	return res, nil
}

// source builds a source like a resource.
func (b *builder) source(e *ccElement) (cdv2.Source, error) {
	access, version, err := b.access(e)
	if err != nil {
		return cdv2.Source{}, err
	}
	src := cdv2.Source{IdentityObjectMeta: e.IdentityObjectMeta, Access: access}
	if src.Version == "" && e.Input != nil {
		src.Version = version
	}
	return src, nil
}

// access returns the access of e, building its input, and the version a
// local element defaults to.
func (b *builder) access(e *ccElement) (*cdv2.UnstructuredTypedObject, string, error) {
	switch {
	case e.Access != nil && e.Input != nil:
		return nil, "", errors.New("either access or input must be set, not both")
	case e.Access != nil:
		return e.Access, b.component.Version, nil
	case e.Input == nil:
		return nil, "", errors.New("access or input is required")
	}
	if e.Type == "" {
		return nil, "", errors.New("type is required")
	}
	blob, ref, err := b.input(e.Input)
	if err != nil {
		return nil, "", fmt.Errorf("input %s: %w", e.Input.Type, err)
	}
	b.blobs[ref.LocalReference] = blob
	version := b.component.Version
	if e.Input.Version != "" {
		version = e.Input.Version
	}
	access, err := ref.typed()
	return access, version, err
}

// digest is the genericBlobDigest/v1 digest of a local blob access.
func (b *builder) digest(access *cdv2.UnstructuredTypedObject) *cdv2.DigestSpec {
	ref, _ := access.Object["localReference"].(string)
	hex, ok := strings.CutPrefix(ref, "sha256:")
	if !ok {
		return nil
	}
	return &cdv2.DigestSpec{HashAlgorithm: "SHA-256", NormalisationAlgorithm: "genericBlobDigest/v1", Value: hex}
}
