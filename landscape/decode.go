package landscape

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/internal/fastyaml"
)

// chunk is the text of one YAML document and the line of the file where it
// starts.
type chunk struct {
	data []byte
	line int
}

// splitDocuments cuts a file into YAML documents at lines that hold only
// "---" or "...", optionally followed by a comment. A "..." line ends a
// document, and what follows it is the next one, as YAML has it: cut only at
// "---", a document after "..." was dropped without a word (the YAML parser
// reads the first document of a chunk).
func splitDocuments(data []byte) []chunk {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var chunks []chunk
	start, startLine, line := 0, 1, 1
	for i := 0; i < len(data); line++ {
		next := len(data)
		if n := bytes.IndexByte(data[i:], '\n'); n >= 0 {
			next = i + n + 1
		}
		if isSeparator(data[i:next]) {
			chunks = append(chunks, chunk{data: data[start:i], line: startLine})
			start, startLine = next, line+1
		}
		i = next
	}
	return append(chunks, chunk{data: data[start:], line: startLine})
}

// isSeparator tells whether line separates two YAML documents: a directives
// end marker ("---") or a document end marker ("...").
func isSeparator(line []byte) bool {
	line = bytes.TrimRight(line, " \t\r\n")
	rest, ok := bytes.CutPrefix(line, []byte("---"))
	if !ok {
		rest, ok = bytes.CutPrefix(line, []byte("..."))
	}
	if !ok {
		return false
	}
	trimmed := bytes.TrimLeft(rest, " \t")
	return len(rest) == 0 || len(trimmed) < len(rest) && trimmed[0] == '#'
}

// yamlLine finds the line numbers in yaml errors.
var yamlLine = regexp.MustCompile(`line (\d+):`)

// yamlToJSON converts one document to JSON. Duplicate keys are errors.
// The message of an error gives lines of the file, not of the document.
// Documents in fastyaml's subset are converted by it, to the same bytes;
// the rest, and every error, by YAMLToJSONStrict.
func yamlToJSON(c chunk) ([]byte, error) {
	if js, ok := fastyaml.ToJSON(c.data); ok {
		return js, nil
	}
	js, err := yaml.YAMLToJSONStrict(c.data)
	if err == nil {
		return js, nil
	}
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	msg = yamlLine.ReplaceAllStringFunc(msg, func(m string) string {
		n, _ := strconv.Atoi(yamlLine.FindStringSubmatch(m)[1])
		return fmt.Sprintf("line %d:", n+c.line-1)
	})
	lines := strings.Split(msg, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return nil, errors.New("invalid YAML: " + strings.Join(lines, "; "))
}

// header is what the loader reads from a document before it knows its type.
type header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name         string `json:"name"`
		GenerateName string `json:"generateName"`
	} `json:"metadata"`
}

// readHeader reads apiVersion, kind and name from a document in JSON. On
// error, it returns what it could read of the kind.
func readHeader(js []byte) (header, error) {
	var h header
	if js[0] != '{' {
		return h, fmt.Errorf("got %s, want an object: a mapping with apiVersion, kind and metadata", jsonKind(js))
	}
	if fastjson.UnmarshalCaseSensitive(js, &h) {
		return h, nil
	}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(js, &h); err != nil {
		// Try the kind alone, to name it in the problem.
		var kind struct {
			Kind string `json:"kind"`
		}
		_ = sigsjson.UnmarshalCaseSensitivePreserveInts(js, &kind)
		return header{Kind: kind.Kind}, errors.New(decodeMessage(err, ""))
	}
	return h, nil
}

// jsonKind names the type of a JSON value by its first byte.
func jsonKind(js []byte) string {
	switch js[0] {
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case '{':
		return "a mapping"
	}
	return "a number"
}

// decodeStrict decodes js into obj, which must be a pointer. It returns the
// fatal error, if any, and otherwise the unknown fields, as messages. prefix
// is put before field paths, for decoding a part of a document.
func decodeStrict(js []byte, obj any, prefix string) (msgs []string, fatal bool) {
	if fastjson.UnmarshalStrict(js, obj) {
		return nil, false
	}
	strictErrs, err := sigsjson.UnmarshalStrict(js, obj)
	if err != nil {
		return []string{decodeMessage(err, prefix)}, true
	}
	for _, e := range strictErrs {
		msg := e.Error()
		if fe, ok := e.(sigsjson.FieldError); ok {
			if prefix != "" {
				fe.SetFieldPath(prefix + fe.FieldPath())
				msg = e.Error()
			}
			if h := unknownFieldHint(fe.FieldPath()); h != "" {
				msg += ": " + h
			}
		}
		msgs = append(msgs, msg)
	}
	return msgs, false
}

// localRefNamespace is the path of a namespace in an import's configMapRef
// or secretRef.
var localRefNamespace = regexp.MustCompile(`^spec\.imports\.data\[\d+\]\.(configMapRef|secretRef)\.namespace$`)

// unknownFieldHint says what to do about an unknown field that real
// projects write, or "". gardener/landscaper-examples' configMapRefs carry a
// namespace (imports/configmap-bin, render-blueprint/schema-in-cd), which
// Landscaper's LocalConfigMapReference and LocalSecretReference do not have
// (apis/core/v1alpha1/types_shared.go): Landscaper reads them from the
// installation's namespace, and kubectl's strict field validation refuses
// the file.
func unknownFieldHint(path string) string {
	if m := localRefNamespace.FindStringSubmatch(path); m != nil {
		kind := map[string]string{"configMapRef": "ConfigMap", "secretRef": "Secret"}[m[1]]
		return fmt.Sprintf("an import reads the %s in the installation's namespace (%s has name and key only): remove namespace", kind, m[1])
	}
	return ""
}

// plainExecutionSpec has the fields of ExecutionSpec but not its
// UnmarshalJSON, which decodes with encoding/json: ignoring unknown fields and
// matching names without regard to case.
type plainExecutionSpec lsv1alpha1.ExecutionSpec

// checkExecutionSpec decodes spec of an Execution document strictly, which
// decoding the Execution cannot do, and returns the document to decode: a
// spec given as null (a "spec:" with nothing after it) is left out, as the
// API server prunes a null it does not allow, because ExecutionSpec's own
// UnmarshalJSON cannot read null.
func checkExecutionSpec(js []byte) (doc []byte, msgs []string, fatal bool) {
	var members map[string]json.RawMessage
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(js, &members); err != nil || len(members["spec"]) == 0 {
		return js, nil, false
	}
	if string(members["spec"]) != "null" {
		msgs, fatal = decodeStrict(members["spec"], &plainExecutionSpec{}, "spec.")
		return js, msgs, fatal
	}
	delete(members, "spec")
	if without, err := json.Marshal(members); err == nil {
		return without, nil, false
	}
	return js, nil, false
}

// decodeMessage explains a decoding error. Type errors become
// "spec.context: got a number, want a string".
func decodeMessage(err error, prefix string) string {
	var b64 base64.CorruptInputError
	if errors.As(err, &b64) {
		return fmt.Sprintf("a value that must be base64 is not (%v): in a Secret, put plain text into stringData instead of data", err)
	}
	v := reflect.ValueOf(err)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct || !strings.Contains(err.Error(), "cannot unmarshal") {
		return "cannot decode: " + err.Error()
	}
	// sigs.k8s.io/json returns a copy of encoding/json's UnmarshalTypeError
	// from an internal package; read its fields by name.
	s := v.Elem()
	value, field, typ := s.FieldByName("Value"), s.FieldByName("Field"), s.FieldByName("Type")
	if !value.IsValid() || !field.IsValid() || !typ.IsValid() || !typ.CanInterface() {
		return "cannot decode: " + err.Error()
	}
	t, ok := typ.Interface().(reflect.Type)
	if !ok || t == nil {
		return "cannot decode: " + err.Error()
	}
	where := prefix + field.String()
	if where == "" {
		where = "document"
	}
	msg := fmt.Sprintf("%s: got %s, want %s", strings.TrimSuffix(where, "."), jsonValueName(value.String()), goTypeName(t))
	if value.String() == "bool" && t.Kind() == reflect.String {
		msg += ` (YAML reads y, n, yes, no, on, off, true and false as booleans: quote the value)`
	}
	return msg
}

// jsonValueName names a JSON value as encoding/json's UnmarshalTypeError.Value does.
func jsonValueName(v string) string {
	switch {
	case v == "object":
		return "a mapping"
	case v == "array":
		return "a list"
	case v == "bool":
		return "a boolean"
	case strings.HasPrefix(v, "number"):
		return strings.Replace(v, "number", "a number", 1)
	}
	return "a " + v
}

// goTypeName says which JSON value decodes into t.
func goTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "a list"
	case reflect.Pointer:
		return goTypeName(t.Elem())
	}
	return "a mapping"
}
