package dataflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/template"
)

// outputKeys name what the output of each kind of execution holds, for
// messages.
var outputKeys = map[string]string{
	kindImport:  "bindings and errors",
	kindDeploy:  "deployItems",
	kindSubinst: "subinstallations",
	kindExport:  "exports",
}

// yamlLine is a YAML parser's "line N: what" message.
var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// explainOutput is the error of decoding the rendered output data of an
// execution of kind into out, which failed with err: it says what the output
// holds and what it should, in the terms of the blueprint, not of lscli's Go
// types.
func explainOutput(kind string, data []byte, out any, err error) error {
	if explained := decodeOutput(kind, data, reflect.New(reflect.TypeOf(out).Elem()).Interface()); explained != nil {
		return explained
	}
	return fmt.Errorf("decode the rendered output: %w", err)
}

// decodeOutput decodes the rendered output of an execution of kind into
// out, with errors as explainOutput words them.
func decodeOutput(kind string, data []byte, out any) error {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "), "yaml: ")
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return template.OutputError(data, line, fmt.Errorf("the rendered output is not valid YAML: %s", m[2]))
		}
		return fmt.Errorf("the rendered output is not valid YAML: %s", msg)
	}
	var top any
	if err := json.Unmarshal(js, &top); err != nil {
		return fmt.Errorf("the rendered output cannot be read: %w", err)
	}
	if _, ok := top.(map[string]any); !ok && top != nil {
		return fmt.Errorf("the rendered output is %s, want a mapping with %s", jsonKindOf(top), outputKeys[kind])
	}
	if err := json.Unmarshal(js, out); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("the rendered output has %s at %s, want %s", valueName(te.Value), fieldPath(te), wantName(te.Type))
		}
		return fmt.Errorf("the rendered output cannot be read: %w", err)
	}
	return nil
}

// fieldPath is where a type error is, as a path of JSON keys.
func fieldPath(te *json.UnmarshalTypeError) string {
	if te.Field == "" {
		return "the top"
	}
	return te.Field
}

// jsonKindOf names the kind of a decoded JSON value.
func jsonKindOf(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	}
	return "a mapping"
}

// valueName names the JSON value of a type error ("string", "array", ...).
func valueName(v string) string {
	switch {
	case v == "object":
		return "a mapping"
	case v == "array":
		return "a list"
	case v == "bool":
		return "a boolean"
	case strings.HasPrefix(v, "number"):
		return "a number"
	}
	return "a " + v
}

// wantName says which JSON value decodes into t.
func wantName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Pointer:
		return wantName(t.Elem())
	}
	return "a mapping"
}
