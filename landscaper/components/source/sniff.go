package source

import (
	"bytes"
	"encoding/json"

	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/components/descriptor"
)

// FileKind says what a YAML file of a component source is.
type FileKind int

// The kinds of files Sniff tells apart.
const (
	// NotComponent is any other file (e.g. Landscaper objects).
	NotComponent FileKind = iota
	// ConstructorFile is an OCM component-constructor file.
	ConstructorFile
	// DescriptorFileKind is a component descriptor (v2 or v3alpha1).
	DescriptorFileKind
)

// Sniff tells what the YAML file data is by its first document.
func Sniff(data []byte) FileKind {
	if hasForeignAPIVersion(data) {
		return NotComponent
	}
	docs, err := splitYAML(data)
	if err != nil {
		return NotComponent
	}
	for _, doc := range docs {
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return NotComponent
		}
		if string(js) != "null" {
			return DocumentKind(js)
		}
	}
	return NotComponent
}

// DocumentKind tells what one YAML document, as JSON, is: a component
// descriptor, a component-constructor document, or neither.
func DocumentKind(js []byte) FileKind {
	var m map[string]json.RawMessage
	if json.Unmarshal(js, &m) != nil {
		return NotComponent
	}
	if _, err := descriptor.SchemaOf(js); err == nil {
		return DescriptorFileKind
	}
	if _, ok := m["apiVersion"]; ok {
		return NotComponent
	}
	if _, ok := m["kind"]; ok {
		return NotComponent
	}
	// A constructor's components: is a list and its component: an
	// object; lscli's config file (read with --config under another name
	// than lscli.yaml) has a components: map.
	list := isJSON(m["components"], '[')
	single := isJSON(m["component"], '{')
	if len(m) == 1 && (list || single) {
		return ConstructorFile
	}
	_, name := m["name"]
	_, version := m["version"]
	if !name || !version || m["meta"] != nil {
		return NotComponent
	}
	for _, k := range []string{"provider", "resources", "references", "componentReferences"} {
		if _, ok := m[k]; ok {
			return ConstructorFile
		}
	}
	return NotComponent
}

// hasForeignAPIVersion is a fast check for files of Landscaper and
// Kubernetes objects: a top-level apiVersion other than OCM's.
func hasForeignAPIVersion(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("apiVersion:"))
		if !ok {
			continue
		}
		v := bytes.Trim(bytes.TrimSpace(rest), `"'`)
		return string(v) != descriptor.SchemaV3
	}
	return false
}

// isJSON reports whether raw is a JSON value starting with open ('[' for a
// list, '{' for an object).
func isJSON(raw json.RawMessage, open byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == open
}
