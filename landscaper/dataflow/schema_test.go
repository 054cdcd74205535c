package dataflow

import (
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
)

func TestSchemas(t *testing.T) {
	s := &schemas{
		localTypes: map[string]lsv1alpha1.JSONSchemaDefinition{
			"port":  {RawMessage: []byte(`{"type": "integer", "maximum": 65535}`)},
			"pair":  {RawMessage: []byte(`{"type": "object", "properties": {"port": {"$ref": "local://port"}}}`)},
			"loop":  {RawMessage: []byte(`{"$ref": "local://loop"}`)},
			"defs":  {RawMessage: []byte(`{"definitions": {"name": {"type": "string", "minLength": 2}}}`)},
			"inner": {RawMessage: []byte(`{"$ref": "#/definitions/x", "definitions": {"x": {"type": "string"}}}`)},
		},
		fs: fstest.MapFS{"schemas/size.json": {Data: []byte(`{"type": "string", "enum": ["S", "M"]}`)}},
	}
	tests := []struct {
		name, schema string
		value        any
		err          string
	}{
		{name: "plain", schema: `{"type": "string"}`, value: "x"},
		{name: "local", schema: `{"$ref": "local://port"}`, value: 80},
		{name: "fragment of only a slash", schema: `{"$ref": "local://defs#/"}`, value: "a", err: `the schema has no "/"`},
		{name: "$ref that is no string", schema: `{"type": "number", "$ref": 5}`, value: "hello"},
		{name: "local with a path", schema: `{"$ref": "local://port/x"}`, value: 80, err: "a path is not supported for local resources"},
		{name: "local too big", schema: `{"$ref": "local://port"}`, value: 70000, err: "(root): Must be less than or equal to 65535"},
		{name: "nested local", schema: `{"$ref": "local://pair"}`, value: map[string]any{"port": "x"}, err: "port: Invalid type. Expected: integer, given: string"},
		{name: "fragment", schema: `{"$ref": "local://defs#/definitions/name"}`, value: "a", err: "(root): String length must be greater than or equal to 2"},
		// As in Landscaper, an object with a $ref is the reference alone:
		// its siblings (the definitions it points into) go.
		{name: "internal ref", schema: `{"$ref": "local://inner"}`, value: "ok", err: "invalid schema: Object has no key 'definitions'"},
		{name: "internal ref with siblings", schema: `{"$ref": "#/definitions/x", "definitions": {"x": {"type": "string"}}}`, value: "ok",
			err: "invalid schema: Object has no key 'definitions'"},
		{name: "internal ref alone", schema: `{"properties": {"a": {"$ref": "#/definitions/x"}}, "definitions": {"x": {"type": "string"}}}`,
			value: map[string]any{"a": 1}, err: "a: Invalid type. Expected: string, given: integer"},
		{name: "blueprint file", schema: `{"$ref": "blueprint://schemas/size.json"}`, value: "XL", err: "(root): (root) must be one of the following"},
		{name: "unknown local", schema: `{"$ref": "local://nope"}`, value: 1, err: `$ref "local://nope": the blueprint has no localTypes entry "nope"`},
		{name: "missing file", schema: `{"$ref": "blueprint://nope.json"}`, value: 1, err: `$ref "blueprint://nope.json": read schema from the blueprint`},
		{name: "cycle", schema: `{"$ref": "local://loop"}`, value: 1, err: `$ref "local://loop": the references form a cycle`},
		{name: "cd", schema: `{"$ref": "cd://resources/schema"}`, value: 1, err: "no component descriptor defined to resolve the ref"},
		{name: "bad fragment", schema: `{"$ref": "local://defs#/definitions/nope"}`, value: 1, err: `the schema has no "/definitions/nope"`},
		{name: "not json", schema: `{`, value: 1, err: "schema is not valid JSON"},
		{name: "https", schema: `{"$ref": "https://schemas.example/size.json"}`, value: 1, err: `$ref "https://schemas.example/size.json" is refused: lscli opens no network connection`},
		{name: "http nested", schema: `{"properties": {"a": {"$ref": "http://127.0.0.1:1/x.json#/a"}}}`, value: 1, err: `$ref "http://127.0.0.1:1/x.json#/a" is refused`},
		{name: "file", schema: `{"$ref": "file:///etc/passwd"}`, value: 1, err: `$ref "file:///etc/passwd" is refused`},
		{name: "relative path", schema: `{"$ref": "../schema.json"}`, value: 1, err: `$ref "../schema.json" is refused`},
		{name: "relative to a remote $id", schema: `{"$id": "https://schemas.example/", "definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"type": "string"}},
			"properties": {"x": {"$ref": "other.json"}}}`, value: 1, err: `$ref "other.json" is refused`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.validate([]byte(tt.schema), tt.value)
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			checkErr(t, err, tt.err, false)
		})
	}
}

func TestStateSecretName(t *testing.T) {
	inst := &lsv1alpha1.Installation{}
	inst.Name = "app"
	// Landscaper names the Secret base32(sha1("<inst>/<prefix><exec>")),
	// which is what GenerateDataObjectName computes for context "<inst>".
	if got, want := StateSecretName(inst, "deploy", "main"), helper.GenerateDataObjectName("app", "deploymain"); got != want {
		t.Errorf("StateSecretName = %s, want %s", got, want)
	}
}

func TestContextOf(t *testing.T) {
	c := newCluster(t)
	root := installation(t, c, "root", "{}", blueprintImports(""))
	child := installation(t, c, "child", "{}", blueprintImports(""))
	childOf(t, c, child, root)
	if ContextOf(root) != "" || ContextOf(child) != "Inst.root" || OwnContext(child) != "Inst.child" || ParentName(child) != "root" {
		t.Errorf("contexts: root %q, child %q, own %q", ContextOf(root), ContextOf(child), OwnContext(child))
	}
	if ObjectName("", "plain") != "plain" || ObjectName("Inst.root", "x") == "x" {
		t.Error("ObjectName does not follow GenerateDataObjectName")
	}
}

// A schema that cannot be resolved or compiled is Landscaper's message in
// the status (pkg/landscaper/jsonschema/reference.go, validate.go and
// installations/operation.go's JSONSchemaValidator): "validator creation
// failed: error compiling jsonschema: " and the resolver's error, each
// reference on the way wrapped in "error resolving reference at <path>".
func TestSchemasLandscaperText(t *testing.T) {
	s := &schemas{
		localTypes: map[string]lsv1alpha1.JSONSchemaDefinition{
			"defs": {RawMessage: []byte(`{"definitions": {"name": {"type": "string"}}}`)},
			"bad":  {RawMessage: []byte(`{"properties": {"b": {"items": [{"$ref": "local://nope"}]}}}`)},
			"loop": {RawMessage: []byte(`{"$ref": "local://loop"}`)},
		},
		fs: fstest.MapFS{"schemas/size.json": {Data: []byte(`{"type": "string"}`)}, "broken.json": {Data: []byte(`{`)}},
	}
	const creation = "validator creation failed: error compiling jsonschema: "
	tests := []struct{ name, schema, want string }{
		{"unknown local", `{"$ref": "local://nope"}`, creation + "error resolving reference at [].$ref: type nope is not defined in local types"},
		{"nested", `{"properties": {"a": {"$ref": "local://bad"}}}`, creation + "error resolving reference at [].properties.a.$ref: " +
			"error resolving reference at [].properties.a.properties.b.items[0].$ref: type nope is not defined in local types"},
		{"local with a path", `{"$ref": "local://defs/x"}`, creation + "error resolving reference at [].$ref: a path is not supported for local resources"},
		{"missing file", `{"$ref": "blueprint://schemas/nope.json"}`, creation + "error resolving reference at [].$ref: unable to read local schema from schemas/nope.json: file does not exist"},
		{"missing folder", `{"$ref": "blueprint://nope/x.json"}`, creation + "error resolving reference at [].$ref: unable to read local schema from nope/x.json:  /nope: file does not exist"},
		{"not JSON", `{"$ref": "blueprint://broken.json"}`, creation + "error resolving reference at [].$ref: error unmarshalling json into go struct: unexpected EOF"},
		{"fragment without field", `{"$ref": "local://defs#/definitions/nope"}`, creation +
			`error resolving reference at [].$ref: error resolving fragment /definitions/nope: element at "[].definitions" doesn't have a field "nope"`},
		{"fragment into no object", `{"$ref": "local://defs#/definitions/name/type/x"}`, creation +
			`error resolving reference at [].$ref: unable to resolve fragment /definitions/name/type/x: element at "[].definitions.name.type" is no object`},
		{"invalid schema", `{"type": 5}`, creation + "Invalid type. Expected: string/array of strings, given: type"},
		// Landscaper's cycle message panics without a component version.
		{"cycle", `{"$ref": "local://loop"}`, ""},
		// Landscaper fetches it.
		{"https", `{"$ref": "https://schemas.example/size.json"}`, ""},
		{"violation", `{"$ref": "blueprint://schemas/size.json"}`, "words: (root): Invalid value: 1: Invalid type. Expected: string, given: integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.validate([]byte(tt.schema), 1)
			if err == nil {
				t.Fatal("no error")
			}
			if got := landscaperSchemaText("words", err); got != tt.want {
				t.Errorf("Landscaper's text\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
