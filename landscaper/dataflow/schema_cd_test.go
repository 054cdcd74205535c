package dataflow

import (
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/components/source"
)

// A schema of a referenced component, gzip compressed, whose own cd://
// reference is resolved from that component, and a fragment.
func TestSchemasFromComponents(t *testing.T) {
	files := fstest.MapFS{
		"cc.yaml": {Data: []byte(`components:
- name: example.com/app
  version: 1.0.0
  provider: {name: x}
  componentReferences: [{name: defs, componentName: example.com/defs, version: 1.0.0}]
  resources:
  - {name: image, type: ociImage, version: 1.0.0, access: {type: ociArtifact, imageReference: r/x:1}}
- name: example.com/defs
  version: 1.0.0
  provider: {name: x}
  resources:
  - {name: port, type: landscaper.gardener.cloud/jsonschema, input: {type: file, path: port.json, compress: true}}
  - {name: pair, type: landscaper.gardener.cloud/jsonschema, input: {type: file, path: pair.json}}
  - {name: blob, type: plainText, input: {type: file, path: port.json}}
`)},
		"port.json": {Data: []byte(`{"type": "integer", "maximum": 65535}`)},
		"pair.json": {Data: []byte(`{"definitions": {"pair": {"type": "object", "properties": {"port": {"$ref": "cd://resources/port"}}}}}`)},
	}
	root := source.Root{FS: files, Display: "."}
	reg := components.NewFromRoots(components.Config{}, []source.Root{root}, root)
	tree, err := reg.Resolve(components.Request{Name: "example.com/app", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	s := &schemas{tree: tree, owner: tree.Root}
	tests := []struct {
		name, schema string
		value        any
		err          string
	}{
		{name: "gzip", schema: `{"$ref": "cd://componentReferences/defs/resources/port"}`, value: 80},
		{name: "too big", schema: `{"$ref": "cd://componentReferences/defs/resources/port"}`, value: 70000, err: "Must be less than or equal to 65535"},
		{name: "nested and fragment", schema: `{"$ref": "cd://componentReferences/defs/resources/pair#/definitions/pair"}`,
			value: map[string]any{"port": "x"}, err: "port: Invalid type. Expected: integer, given: string"},
		{name: "not a schema", schema: `{"$ref": "cd://componentReferences/defs/resources/blob"}`, value: 1,
			err: "unable to fetch jsonschema for 'cd://componentReferences/defs/resources/blob': no handler found for resource type plainText"},
		{name: "no resource", schema: `{"$ref": "cd://componentReferences/defs"}`, value: 1, err: "the selector seems to target a component"},
		{name: "unknown", schema: `{"$ref": "cd://resources/nope"}`, value: 1, err: "local resource nope cannot be found"},
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

// A cycle of references in a blueprint of a component version is
// Landscaper's message, which names the component version.
func TestSchemasCycleLandscaperText(t *testing.T) {
	files := fstest.MapFS{"cc.yaml": {Data: []byte(`components:
- {name: example.com/app, version: 1.0.0, provider: {name: x}}
`)}}
	root := source.Root{FS: files, Display: "."}
	reg := components.NewFromRoots(components.Config{}, []source.Root{root}, root)
	tree, err := reg.Resolve(components.Request{Name: "example.com/app", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	s := &schemas{tree: tree, owner: tree.Root, localTypes: map[string]lsv1alpha1.JSONSchemaDefinition{
		"a": {RawMessage: []byte(`{"$ref": "local://b#/x"}`)},
		"b": {RawMessage: []byte(`{"x": {"type": "string"}, "y": {"$ref": "local://b#/x"}}`)},
	}}
	err = s.validate([]byte(`{"$ref": "local://a"}`), 1)
	checkErr(t, err, `$ref "local://b#/x": the references form a cycle`, false)
	want := "validator creation failed: error compiling jsonschema: error resolving reference at [].$ref: " +
		"error resolving reference at [].$ref: error resolving reference at [].y.$ref: " +
		`cyclic references detected: reference "local://b#/x" from component example.com/app:1.0.0 is part of a cycle`
	if got := landscaperSchemaText("words", err); got != want {
		t.Errorf("Landscaper's text\n got %q\nwant %q", got, want)
	}
}
