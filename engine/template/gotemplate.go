package template

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"
	gotmpl "text/template"

	"github.com/Masterminds/sprig/v3"
	"sigs.k8s.io/yaml"
)

// maxIncludeDepth bounds recursive include calls, as Landscaper does.
const maxIncludeDepth = 100

// ExecuteGo renders the GoTemplate text named name with values. fsys is the
// blueprint's filesystem for include, readFile and readDir; it may be nil.
func ExecuteGo(name, text string, fsys fs.FS, values map[string]any) ([]byte, error) {
	t := gotmpl.New(name).Option("missingkey=zero")
	t.Funcs(funcMap(t, fsys))
	if _, err := t.Parse(text); err != nil {
		return nil, fmt.Errorf("parse template: %w", err)
	}
	var out bytes.Buffer
	if err := t.Execute(&out, values); err != nil {
		return nil, fmt.Errorf("execute template: %w", err)
	}
	if err := checkNoValue(out.Bytes()); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// funcMap is sprig's text functions without env and expandenv, plus
// Landscaper's functions that make sense without a cluster or registry.
func funcMap(t *gotmpl.Template, fsys fs.FS) gotmpl.FuncMap {
	fm := sprig.TxtFuncMap()
	delete(fm, "env")
	delete(fm, "expandenv")
	depth := 0
	fm["include"] = func(name string, binding any) (string, error) {
		if depth >= maxIncludeDepth {
			return "", fmt.Errorf("include %q: recursion deeper than %d", name, maxIncludeDepth)
		}
		depth++
		defer func() { depth-- }()
		var buf bytes.Buffer
		err := t.ExecuteTemplate(&buf, name, binding)
		return buf.String(), err
	}
	fm["readFile"] = func(p string) (string, error) { return readFile(fsys, p) }
	fm["readDir"] = func(p string) ([]string, error) { return readDir(fsys, p) }
	fm["toYaml"] = toYAML
	fm["fromYaml"] = fromYAML
	return fm
}

func cleanPath(p string) string {
	return strings.TrimPrefix(path.Clean("/"+p), "/")
}

func readFile(fsys fs.FS, p string) (string, error) {
	if fsys == nil {
		return "", fmt.Errorf("readFile %q: no blueprint filesystem", p)
	}
	data, err := fs.ReadFile(fsys, cleanPath(p))
	return string(data), err
}

func readDir(fsys fs.FS, p string) ([]string, error) {
	if fsys == nil {
		return nil, fmt.Errorf("readDir %q: no blueprint filesystem", p)
	}
	entries, err := fs.ReadDir(fsys, cleanPath(p))
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}

// toYAML marshals v as YAML without the trailing newline.
func toYAML(v any) (string, error) {
	data, err := yaml.Marshal(v)
	return strings.TrimSuffix(string(data), "\n"), err
}

func fromYAML(s string) (map[string]any, error) {
	out := map[string]any{}
	err := yaml.Unmarshal([]byte(s), &out)
	return out, err
}

// NoValueError reports "<no value>" in rendered output: a value the template
// read that does not exist.
type NoValueError struct {
	Line, Column int
	Text         string
}

func (e *NoValueError) Error() string {
	return fmt.Sprintf("line %d, column %d: template produced <no value> (a missing value): %s", e.Line, e.Column, e.Text)
}

func checkNoValue(out []byte) error {
	for i, line := range strings.Split(string(out), "\n") {
		if col := strings.Index(line, "<no value>"); col >= 0 {
			return &NoValueError{Line: i + 1, Column: col + 1, Text: strings.TrimSpace(line)}
		}
	}
	return nil
}
