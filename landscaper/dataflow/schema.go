package dataflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/xeipuuv/gojsonschema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/internal/memo"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/components/source"
)

// schemas validates values against the JSON schemas of one blueprint. It
// resolves Landscaper's $ref extensions: local://<type> (the blueprint's
// localTypes), blueprint://<path> (a file of the blueprint) and
// cd://.../resources/<name> (a JSON schema resource of the installation's
// component versions); references into the same schema (#/definitions/...)
// are left to the validator; all others (http, https, file, relative paths)
// are refused, so that validating opens no network connection and reads no
// host file.
type schemas struct {
	localTypes map[string]lsv1alpha1.JSONSchemaDefinition
	fs         fs.FS
	// tree is the installation's component versions (nil without); owner
	// the version cd:// references start at (tree's root, or the version
	// a schema read from a component belongs to).
	tree  *components.Tree
	owner *source.Version
	// blueprint names the blueprint in messages: "inline", or its folder.
	blueprint string
}

// newSchemas returns the schemas of blueprint bp of an installation with
// component versions tree (may be nil).
func newSchemas(bp *blueprint.Blueprint, tree *components.Tree) *schemas {
	s := &schemas{localTypes: bp.Info.LocalTypes, fs: bp.FS, tree: tree, blueprint: bp.Source}
	if tree != nil {
		s.owner = tree.Root
	}
	return s
}

// validate checks value against schema.
func (s *schemas) validate(schema []byte, value any) error {
	compiled, err := s.compile(schema)
	if err != nil {
		return err
	}
	res, err := compiled.Validate(gojsonschema.NewGoLoader(value))
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	if res.Valid() {
		return nil
	}
	return &schemaViolation{errs: res.Errors()}
}

// schemaViolation is a value that does not satisfy its schema: the
// validator's errors, in its order.
type schemaViolation struct {
	errs []gojsonschema.ResultError
}

// Error lists the errors as lscli words them: "<field>: <description>",
// joined with "; ".
func (e *schemaViolation) Error() string {
	msgs := make([]string, len(e.errs))
	for i, re := range e.errs {
		msgs[i] = fmt.Sprintf("%s: %s", re.Field(), re.Description())
	}
	return strings.Join(msgs, "; ")
}

// landscaper lists the errors as Landscaper's validator does
// (pkg/landscaper/jsonschema/validate.go): a field.Invalid per error, with
// the value, aggregated (duplicates dropped, two or more in brackets).
func (e *schemaViolation) landscaper() string {
	var all field.ErrorList
	for _, re := range e.errs {
		all = append(all, field.Invalid(field.NewPath(re.Field()), re.Value(), re.Description()))
	}
	return all.ToAggregate().Error()
}

// landscaperSchemaText is Landscaper's text of err, an error of validate
// for a value, after prefix (the path and Landscaper's words before the
// validator's errors), or "" when err is not a violation of the schema
// (a schema lscli cannot compile or use, where Landscaper's error is not
// the same).
func landscaperSchemaText(prefix string, err error) string {
	var v *schemaViolation
	if !errors.As(err, &v) {
		return ""
	}
	return prefix + ": " + v.landscaper()
}

// compile resolves and compiles schema. A schema without references
// ($ref) means the same in every blueprint, so it is compiled once and
// kept (see compiledSchemas).
func (s *schemas) compile(schema []byte) (*gojsonschema.Schema, error) {
	cacheable := !bytes.Contains(schema, []byte("$ref"))
	if cacheable {
		if compiled, ok := compiledSchemas.Get(string(schema)); ok {
			return compiled, nil
		}
	}
	doc, err := decodeJSONNumber(schema)
	if err != nil {
		return nil, fmt.Errorf("schema is not valid JSON: %w", err)
	}
	resolved, err := s.resolve(doc, map[string]bool{})
	if err != nil {
		return nil, err
	}
	compiled, err := gojsonschema.NewSchemaLoader().Compile(offlineLoader{gojsonschema.NewGoLoader(resolved)})
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %w", err)
	}
	if cacheable {
		compiledSchemas.Put(string(schema), compiled)
	}
	return compiled, nil
}

// compiledSchemas holds the compiled schemas without references, by their
// text. A compiled schema only reads itself when it validates, so one is
// used by all installations, on all goroutines.
var compiledSchemas memo.Bounded[string, *gojsonschema.Schema]

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
		if raw, ok := v["$ref"]; ok {
			ref, isString := raw.(string)
			if !isString {
				// Landscaper puts its error in place of such a schema,
				// which the validator reads as {}: anything goes.
				return map[string]any{}, nil
			}
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
		if u.Path != "" {
			return nil, fmt.Errorf("$ref %q: a path is not supported for local resources", ref)
		}
		t, ok := s.localTypes[u.Host]
		if !ok {
			return nil, fmt.Errorf("$ref %q: the blueprint has no localTypes entry %q", ref, u.Host)
		}
		raw = t.RawMessage
	case "blueprint":
		if s.fs == nil {
			return nil, fmt.Errorf("$ref %q: the blueprint has no files", ref)
		}
		if raw, err = fs.ReadFile(s.fs, blueprint.FilePath(path.Join(u.Host, u.Path))); err != nil {
			return nil, fmt.Errorf("$ref %q: read schema from the blueprint: %w", ref, err)
		}
	case "cd":
		return s.resolveCD(ref, seen)
	case "":
		if strings.HasPrefix(ref, "#") {
			return node, nil // a JSON pointer into the same schema
		}
		return nil, refused(ref)
	default:
		return nil, refused(ref)
	}
	return s.resolveDoc(ref, u.Fragment, raw, seen)
}

// errRefused is wrapped by the errors of schemas that refer to what lscli
// does not read.
var errRefused = errors.New("refused")

// refused is the error for a $ref lscli does not follow: one that would be
// fetched from the network (http, https) or read from the host's files
// (file://, or a path, which the validator would read from the working
// directory).
func refused(ref string) error {
	return fmt.Errorf("$ref %q is %w: lscli opens no network connection and reads no file outside the blueprint; "+
		"put the schema into the blueprint and refer to it as blueprint://<path> or local://<localTypes name>", ref, errRefused)
}

// describeSchemaError words the error of validate for a value (e.g.
// `import "config"`): a schema lscli cannot use, or a value that does not
// match it.
func (s *schemas) describeSchemaError(value string, err error) string {
	if errors.Is(err, errRefused) {
		return fmt.Sprintf("%s: the schema of blueprint %s cannot be used: %v", value, s.blueprintName(), err)
	}
	return fmt.Sprintf("%s does not match the blueprint's schema: %v", value, err)
}

// blueprintName names the blueprint, "inline" when not known.
func (s *schemas) blueprintName() string {
	if s.blueprint == "" {
		return "inline"
	}
	return s.blueprint
}

// resolveDoc decodes a referenced schema, resolves its references and
// returns the part the fragment names.
func (s *schemas) resolveDoc(ref, fragment string, raw []byte, seen map[string]bool) (any, error) {
	// A reference is the same one again only in the same component
	// version, as Landscaper's cycle check keys it (absoluteRef):
	// cd://resources/defs of one component is not that of another.
	base := strings.SplitN(ref, "#", 2)[0]
	if s.owner != nil {
		base = s.owner.Key().String() + "::" + base
	}
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
	if fragment == "" {
		return resolved, nil
	}
	// As Landscaper's resolveFragment: one leading and one trailing slash
	// go, every part between slashes is a field (so "#/" names the field "").
	for _, part := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(fragment, "/"), "/"), "/") {
		m, ok := resolved.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q: the schema has no %q", ref, fragment)
		}
		if resolved, ok = m[part]; !ok {
			return nil, fmt.Errorf("$ref %q: the schema has no %q", ref, fragment)
		}
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
