package dataflow

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

func TestSourceSnippet(t *testing.T) {
	var lines []string
	for i := 1; i <= 120; i++ {
		lines = append(lines, "l")
	}
	// Five lines before and after, the number and colon padded to six
	// characters (none left for three digits and more).
	got := sourceSnippet(100, 0, lines)
	want := "95:   l\n96:   l\n97:   l\n98:   l\n99:   l\n100:  l\n" + "      \u02c6≈≈≈≈≈≈≈\n" +
		"101:  l\n102:  l\n103:  l\n104:  l\n105:  l\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, want := sourceSnippet(1, 3, []string{"a: <no value>"}), "1:    a: <no value>\n         \u02c6≈≈≈≈≈≈≈\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFormatInput(t *testing.T) {
	in := map[string]any{
		"imports": map[string]any{"a": "x", "n": 1, "m": map[string]any{"b": true, "z": nil}},
		"values":  map[string]any{"l": []any{"x"}},
		"state":   nil,
		"cd":      map[string]any{"name": "<c>"},
		"big":     strings.Repeat("x", 600),
	}
	got := formatInput(in, "\t", "imports", "values", "state")
	want := "\tbig: >gzip>base64> " + gzipBase64([]byte(`"`+strings.Repeat("x", 600)+`"`)) + "\n" +
		"\tcd: {\"name\":\"\\u003cc\\u003e\"}\n" +
		"\timports: {\"a\":\"[...] (string)\",\"m\":{\"b\":\"[...] (bool)\",\"z\":\"[...] (%!s(\\u003cnil\\u003e))\"},\"n\":\"[...] (float64)\"}\n" +
		"\tstate: \"[...] (%!s(\\u003cnil\\u003e))\"\n" +
		"\tvalues: \"[...] (string)\"\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// withSource writes the source as Landscaper's TemplateError.formatSource
// does: around the first ":LINE:" or ":LINE:COLUMN:" of the message, the
// column 0 without one, nothing after the heading without a line.
func TestWithSource(t *testing.T) {
	src := "a: 1\nb: {{ .x }\n"
	got := withSource(`template: execution:2: unexpected "}" in operand`, src)
	want := `template: execution:2: unexpected "}" in operand` + "\ntemplate source:\n" +
		"1:    a: 1\n2:    b: {{ .x }\n      \u02c6≈≈≈≈≈≈≈\n3:    \n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	got = withSource(`template: execution:2:6: executing "execution" at <.x>: boom`, src)
	if want := "2:    b: {{ .x }\n            \u02c6≈≈≈≈≈≈≈\n"; !strings.Contains(got, want) {
		t.Errorf("got\n%q\nwant it to contain\n%q", got, want)
	}
	if got, want := withSource("no position", src), "no position\ntemplate source:\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// decodeError words an output that does not decode as Landscaper's
// templaters do: the state decoding of stateful GoTemplate executions, then
// the output decoded into Landscaper's types, with the GoTemplate
// templater's words before it (not for exports) and the import
// constructor's before an import execution's. An output Landscaper
// decodes has none.
func TestDecodeError(t *testing.T) {
	goEx := lsv1alpha1.TemplateExecutor{Name: "x", Type: lsv1alpha1.GOTemplateType}
	spiffEx := lsv1alpha1.TemplateExecutor{Name: "x", Type: lsv1alpha1.SpiffTemplateType}
	const unmarshal = "error unmarshaling JSON: while decoding JSON: json: cannot unmarshal "
	tests := []struct {
		kind, prefix, out, want string
		ex                      lsv1alpha1.TemplateExecutor
	}{
		{kind: kindDeploy, prefix: statePrefixDeploy, out: "a: [", ex: goEx,
			want: "unable to store state: error converting YAML to JSON: yaml: line 1: did not find expected node content"},
		{kind: kindExport, prefix: statePrefixExport, out: "x", ex: goEx,
			want: "unable to store state: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type gotemplate.StateTemplateResult"},
		{kind: kindDeploy, prefix: statePrefixDeploy, out: "deployItems: 1", ex: goEx,
			want: "error while decoding templated execution: " + unmarshal + "number into Go struct field DeployExecutorOutput.deployItems of type []template.DeployItemSpecification"},
		{kind: kindDeploy, prefix: statePrefixDeploy, out: "deployItems: []", ex: goEx},
		{kind: kindImport, out: "a: [", ex: goEx,
			want: "RenderImportExecutions - unable to template executions: error while decoding templated execution: error converting YAML to JSON: yaml: line 1: did not find expected node content"},
		{kind: kindImport, out: "[]", ex: goEx,
			want: "RenderImportExecutions - unable to template executions: error while decoding templated execution: " + unmarshal + "array into Go value of type template.ImportExecutorOutput"},
		{kind: kindExport, prefix: statePrefixExport, out: "exports: 1", ex: goEx,
			want: unmarshal + "number into Go struct field ExportExecutorOutput.exports of type map[string]interface {}"},
		{kind: kindDeploy, prefix: statePrefixDeploy, out: "- a", ex: spiffEx,
			want: unmarshal + "array into Go value of type template.DeployExecutorOutput"},
		{kind: kindSubinst, prefix: statePrefixDeploy, out: "- a", ex: spiffEx,
			want: unmarshal + "array into Go value of type template.helperStruct"},
		{kind: kindSubinst, prefix: statePrefixDeploy, out: "subinstallations: [{name: [a]}]", ex: goEx,
			want: "error while decoding templated execution: error unmarshaling JSON: while decoding JSON: unable to decode installation template 0: unable to decode to internal type: json: cannot unmarshal array into Go struct field InstallationTemplate.name of type string"},
		{kind: kindSubinst, prefix: statePrefixDeploy, out: "subinstallations: [{name: a}]", ex: spiffEx},
	}
	for _, tt := range tests {
		ru := &runner{kind: tt.kind, prefix: tt.prefix}
		err := ru.decodeError(tt.ex, []byte(tt.out))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s %s %q: got %q, want %q", tt.kind, tt.ex.Type, tt.out, got, tt.want)
		}
	}
}
