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
	"github.com/lscli/lscli/landscaper/template"
	"github.com/lscli/lscli/landscaper/template/funcs"
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
// for a value: for a value that does not satisfy the schema, violation
// (Landscaper's words before the validator's errors) and the errors; for
// a schema that cannot be resolved or compiled, the words of Landscaper's
// JSONSchemaValidator (pkg/landscaper/installations/operation.go) and of
// its resolver (pkg/landscaper/jsonschema/reference.go). It is "" where
// Landscaper's error is not the same (a $ref lscli refuses, a cycle
// without a component version, where Landscaper's message panics).
func landscaperSchemaText(violation string, err error) string {
	var v *schemaViolation
	if errors.As(err, &v) {
		return violation + ": " + v.landscaper()
	}
	if text := lsText(err); text != "" {
		return "validator creation failed: error compiling jsonschema: " + text
	}
	return ""
}

// isViolation reports whether err, an error of validate, is a value that
// does not satisfy its schema (not a schema that cannot be used).
func isViolation(err error) bool {
	var v *schemaViolation
	return errors.As(err, &v)
}

// withLS returns err, a schema that cannot be resolved or compiled, with
// Landscaper's words for it ("" when not known), as template functions
// carry theirs (funcs.Worded).
func withLS(err error, landscaper string) error {
	return funcs.Worded(err, landscaper)
}

// lsText returns Landscaper's words for err (see withLS), "" when not known.
func lsText(err error) string {
	var worded interface{ LandscaperMessage() string }
	if errors.As(err, &worded) {
		return worded.LandscaperMessage()
	}
	return ""
}

// lsWrap puts prefix before Landscaper's words for err, as Landscaper
// wraps the error of each reference on the way; unknown words stay
// unknown.
func lsWrap(err error, prefix string) error {
	text := lsText(err)
	if text != "" {
		text = prefix + ": " + text
	}
	return withLS(err, text)
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
		return nil, withLS(fmt.Errorf("schema is not valid JSON: %w", err), err.Error())
	}
	resolved, err := s.resolve(doc, map[string]bool{}, field.NewPath(""))
	if err != nil {
		return nil, err
	}
	compiled, err := gojsonschema.NewSchemaLoader().Compile(offlineLoader{gojsonschema.NewGoLoader(resolved)})
	if err != nil {
		text := err.Error()
		if errors.Is(err, errRefused) {
			text = "" // Landscaper fetches it
		}
		return nil, withLS(fmt.Errorf("invalid schema: %w", err), text)
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
// the references being resolved, to find cycles; at is where doc is in
// the schema, as Landscaper's errors name it (a referenced schema's
// references are named by the path of the $ref that brought it in).
func (s *schemas) resolve(doc any, seen map[string]bool, at *field.Path) (any, error) {
	switch v := doc.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			r, err := s.resolve(e, seen, at.Index(i))
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
			r, err := s.resolveRef(ref, seen, at)
			if err != nil {
				return nil, lsWrap(err, "error resolving reference at "+at.Child("$ref").String())
			}
			return r, nil
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			r, err := s.resolve(e, seen, at.Child(k))
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	return doc, nil
}

// resolveRef resolves one $ref. As in
// Landscaper, a reference is the same one again when its text is, in the
// same component version: one that is on the way to itself is a cycle.
func (s *schemas) resolveRef(ref string, seen map[string]bool, at *field.Path) (any, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, withLS(fmt.Errorf("$ref %q: %w", ref, err), "invalid url: "+err.Error())
	}
	key := ref
	if s.owner != nil {
		key = s.owner.Key().String() + "::" + ref
	}
	if seen[key] {
		text := ""
		if s.owner != nil {
			text = fmt.Sprintf("cyclic references detected: reference %q from component %s is part of a cycle", ref, s.owner.Key())
		}
		return nil, withLS(fmt.Errorf("$ref %q: the references form a cycle", ref), text)
	}
	seen[key] = true
	defer delete(seen, key)
	var raw []byte
	switch u.Scheme {
	case "local":
		if u.Path != "" {
			return nil, withLS(fmt.Errorf("$ref %q: a path is not supported for local resources", ref), "a path is not supported for local resources")
		}
		t, ok := s.localTypes[u.Host]
		if !ok {
			return nil, withLS(fmt.Errorf("$ref %q: the blueprint has no localTypes entry %q", ref, u.Host),
				fmt.Sprintf("type %s is not defined in local types", u.Host))
		}
		raw = t.RawMessage
	case "blueprint":
		if s.fs == nil {
			return nil, withLS(fmt.Errorf("$ref %q: the blueprint has no files", ref), "no filesystem defined to read a local schema")
		}
		file := path.Join(u.Host, u.Path)
		if raw, err = fs.ReadFile(s.fs, blueprint.FilePath(file)); err != nil {
			text := template.BlueprintFileError(s.fs, file, err)
			if text != "" {
				text = fmt.Sprintf("unable to read local schema from %s: %s", file, text)
			}
			return nil, withLS(fmt.Errorf("$ref %q: read schema from the blueprint: %w", ref, err), text)
		}
	case "cd":
		return s.resolveCD(ref, seen, at)
	case "":
		if strings.HasPrefix(ref, "#") {
			// A JSON pointer into the same schema, left to the validator.
			// As Landscaper rebuilds the reference, the object is the $ref
			// alone: its other keys go (definitions next to a $ref that
			// points into them are then not there).
			return map[string]any{"$ref": ref}, nil
		}
		return nil, refused(ref)
	default:
		return nil, refused(ref)
	}
	return s.resolveDoc(ref, u.Fragment, raw, seen, at)
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
// `import "config"`): a schema lscli cannot use (one it refuses, or cannot
// resolve or compile), or a value that does not match it.
func (s *schemas) describeSchemaError(value string, err error) string {
	if !isViolation(err) {
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
// returns the part the fragment names; at is where the $ref is.
func (s *schemas) resolveDoc(ref, fragment string, raw []byte, seen map[string]bool, at *field.Path) (any, error) {
	doc, err := decodeJSONNumber(raw)
	if err != nil {
		return nil, withLS(fmt.Errorf("$ref %q: not valid JSON: %w", ref, err), "error unmarshalling json into go struct: "+err.Error())
	}
	resolved, err := s.resolve(doc, seen, at)
	if err != nil {
		return nil, err
	}
	if fragment == "" {
		return resolved, nil
	}
	// As Landscaper's resolveFragment: one leading and one trailing slash
	// go, every part between slashes is a field (so "#/" names the field "").
	where := field.NewPath("")
	for _, part := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(fragment, "/"), "/"), "/") {
		m, ok := resolved.(map[string]any)
		if !ok {
			return nil, withLS(fmt.Errorf("$ref %q: the schema has no %q", ref, fragment),
				fmt.Sprintf("unable to resolve fragment %s: element at %q is no object", fragment, where.String()))
		}
		if resolved, ok = m[part]; !ok {
			return nil, withLS(fmt.Errorf("$ref %q: the schema has no %q", ref, fragment),
				fmt.Sprintf("error resolving fragment %s: element at %q doesn't have a field %q", fragment, where.String(), part))
		}
		where = where.Child(part)
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
