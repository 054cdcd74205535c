package dataflow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/xeipuuv/gojsonschema"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/components/source"
)

// schemas validates values against the JSON schemas of one blueprint. It
// resolves Landscaper's $ref extensions: local://<type> (the blueprint's
// localTypes), blueprint://<path> (a file of the blueprint) and
// cd://.../resources/<name> (a JSON schema resource of the installation's
// component versions); other references (e.g. to #/definitions) are left
// to the validator.
type schemas struct {
	localTypes map[string]lsv1alpha1.JSONSchemaDefinition
	fs         fs.FS
	// tree is the installation's component versions (nil without); owner
	// the version cd:// references start at (tree's root, or the version
	// a schema read from a component belongs to).
	tree  *components.Tree
	owner *source.Version
}

// newSchemas returns the schemas of blueprint bp of an installation with
// component versions tree (may be nil).
func newSchemas(bp *blueprint.Blueprint, tree *components.Tree) *schemas {
	s := &schemas{localTypes: bp.Info.LocalTypes, fs: bp.FS, tree: tree}
	if tree != nil {
		s.owner = tree.Root
	}
	return s
}

// validate checks value against schema.
func (s *schemas) validate(schema []byte, value any) error {
	doc, err := decodeJSONNumber(schema)
	if err != nil {
		return fmt.Errorf("schema is not valid JSON: %w", err)
	}
	resolved, err := s.resolve(doc, map[string]bool{})
	if err != nil {
		return err
	}
	compiled, err := gojsonschema.NewSchemaLoader().Compile(gojsonschema.NewGoLoader(resolved))
	if err != nil {
		return fmt.Errorf("invalid schema: %w", err)
	}
	res, err := compiled.Validate(gojsonschema.NewGoLoader(value))
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	if res.Valid() {
		return nil
	}
	var msgs []string
	for _, e := range res.Errors() {
		msgs = append(msgs, fmt.Sprintf("%s: %s", e.Field(), e.Description()))
	}
	return fmt.Errorf("%s", strings.Join(msgs, "; "))
}

// resolve replaces local:// and blueprint:// references in doc. seen holds
// the references being resolved, to find cycles.
func (s *schemas) resolve(doc any, seen map[string]bool) (any, error) {
	switch v := doc.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			r, err := s.resolve(e, seen)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok {
			return s.resolveRef(ref, v, seen)
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			r, err := s.resolve(e, seen)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	return doc, nil
}

// resolveRef resolves one $ref; node is the object holding it.
func (s *schemas) resolveRef(ref string, node map[string]any, seen map[string]bool) (any, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("$ref %q: %w", ref, err)
	}
	var raw []byte
	switch u.Scheme {
	case "local":
		t, ok := s.localTypes[u.Host]
		if !ok {
			return nil, fmt.Errorf("$ref %q: the blueprint has no localTypes entry %q", ref, u.Host)
		}
		raw = t.RawMessage
	case "blueprint":
		if s.fs == nil {
			return nil, fmt.Errorf("$ref %q: the blueprint has no files", ref)
		}
		if raw, err = fs.ReadFile(s.fs, strings.TrimPrefix(path.Join(u.Host, u.Path), "/")); err != nil {
			return nil, fmt.Errorf("$ref %q: read schema from the blueprint: %w", ref, err)
		}
	case "cd":
		return s.resolveCD(ref, seen)
	default:
		return node, nil
	}
	return s.resolveDoc(ref, u.Fragment, raw, seen)
}

// resolveDoc decodes a referenced schema, resolves its references and
// returns the part the fragment names.
func (s *schemas) resolveDoc(ref, fragment string, raw []byte, seen map[string]bool) (any, error) {
	base := strings.SplitN(ref, "#", 2)[0]
	if seen[base] {
		return nil, fmt.Errorf("$ref %q: the references form a cycle", ref)
	}
	doc, err := decodeJSONNumber(raw)
	if err != nil {
		return nil, fmt.Errorf("$ref %q: not valid JSON: %w", ref, err)
	}
	seen[base] = true
	defer delete(seen, base)
	resolved, err := s.resolve(doc, seen)
	if err != nil {
		return nil, err
	}
	for _, part := range strings.Split(strings.Trim(fragment, "/"), "/") {
		if part == "" {
			continue
		}
		m, ok := resolved.(map[string]any)
		if !ok || m[part] == nil {
			return nil, fmt.Errorf("$ref %q: the schema has no %q", ref, fragment)
		}
		resolved = m[part]
	}
	return resolved, nil
}

// decodeJSONNumber decodes JSON keeping numbers exact, as schemas need.
func decodeJSONNumber(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	err := dec.Decode(&out)
	return out, err
}
