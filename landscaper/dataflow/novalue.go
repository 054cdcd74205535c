package dataflow

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// noValue is what text/template prints for a missing value.
const noValue = "<no value>"

// templateNames are the names Landscaper's GoTemplate executor gives the
// executions whose output it checks for "<no value>" (import executions
// are not checked).
var templateNames = map[string]string{
	kindDeploy:  "deploy execution",
	kindSubinst: "subinstallation execution",
	kindExport:  "export execution",
}

// noValueError is the error of Landscaper's GoTemplate executor for an
// output that contains "<no value>" (CreateErrorIfContainsNoValue in
// pkg/landscaper/installations/executions/template/gotemplate): every
// line that has one, with the lines around it, and the template's input as
// its input formatter writes it. It returns nil when out has none.
func noValueError(kind string, out []byte, input map[string]any) error {
	text := string(out)
	if !strings.Contains(text, noValue) {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "template %q contains fields with \"no value\":\n", templateNames[kind])
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if col := strings.Index(line, noValue); col >= 0 {
			fmt.Fprintf(&b, "\nline %d:%d\n", i+1, col)
			b.WriteString(sourceSnippet(i+1, col, lines))
		}
	}
	b.WriteString("\ntemplate input:\n")
	b.WriteString(formatInput(input, "\t", "imports", "targets", "values", "state"))
	return &noValueErr{msg: b.String()}
}

// noValueErr is Landscaper's message for "<no value>" in an output.
type noValueErr struct{ msg string }

func (e *noValueErr) Error() string { return e.msg }

// sourceSnippet shows lines (1-based line, 0-based column) as Landscaper's
// template errors do: up to five lines before and after it, each after its
// number and a colon padded to six characters, and a marker under the
// column.
func sourceSnippet(line, column int, lines []string) string {
	const around, width = 5, 6
	first := max(line-1-around, 0)
	last := min(line-1+around, len(lines)-1)
	var b strings.Builder
	for i := first; i <= last; i++ {
		prefix := fmt.Sprintf("%d:", i+1)
		prefix += strings.Repeat(" ", max(width-len(prefix), 0))
		b.WriteString(prefix + lines[i] + "\n")
		if i == line-1 {
			b.WriteString(strings.Repeat(" ", column+len(prefix)) + "\u02c6≈≈≈≈≈≈≈\n")
		}
	}
	return b.String()
}

// formatInput writes a template's input as Landscaper's
// TemplateInputFormatter (not pretty-printed) does: one line per key, the
// value as JSON, gzipped and base64-encoded when its JSON is longer than 512
// bytes; the values of the sensitive keys are replaced by their types.
// Landscaper writes the keys in Go's random map order, lscli by name.
func formatInput(input map[string]any, prefix string, sensitive ...string) string {
	keys := make([]string, 0, len(input))
	for k := range input {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v := plainJSON(input[k])
		for _, s := range sensitive {
			if k == s {
				if m, ok := v.(map[string]any); ok && hasList(m) {
					// Landscaper copies the map through encoding/gob, which
					// refuses lists ([]interface {} is not registered), and
					// goes on with "".
					v = ""
				}
				v = redact(v, 1)
			}
		}
		data, err := json.Marshal(v)
		if err != nil {
			data = nil
		}
		if len(data) > 512 {
			fmt.Fprintf(&b, "%s%s: >gzip>base64> %s\n", prefix, k, gzipBase64(data))
			continue
		}
		fmt.Fprintf(&b, "%s%s: %s\n", prefix, k, data)
	}
	return b.String()
}

// plainJSON returns v as encoding/json decodes its JSON (maps, lists,
// float64, string, bool, nil), the values Landscaper's templates get.
func plainJSON(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return v
	}
	return out
}

// hasList reports whether a list is anywhere in v.
func hasList(v any) bool {
	switch v := v.(type) {
	case []any:
		return true
	case map[string]any:
		for _, e := range v {
			if hasList(e) {
				return true
			}
		}
	}
	return false
}

// redact replaces the leaves of v, down to ten levels of maps, by
// "[...] (TYPE)", as Landscaper's formatter removes sensitive values.
func redact(v any, depth int) any {
	if m, ok := v.(map[string]any); ok && depth <= 10 {
		for k, e := range m {
			m[k] = redact(e, depth+1)
		}
		return m
	}
	if v == nil {
		return "[...] (%!s(<nil>))"
	}
	return fmt.Sprintf("[...] (%s)", reflect.TypeOf(v))
}

// gzipBase64 compresses data with gzip and encodes it with base64.
func gzipBase64(data []byte) string {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(data); err != nil {
		return ""
	}
	if err := w.Close(); err != nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}
