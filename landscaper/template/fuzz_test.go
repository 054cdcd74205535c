package template

import (
	"encoding/json"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/internal/limits"
)

// fuzzLimits keep each fuzzed execution short. TemplateTime is short too:
// a Spiff template that instantiates itself runs until the time limit and
// then on in the background until its next step (see spiff.runLimited);
// with seconds each, a few such inputs in a row starved a fuzz worker until
// the fuzzing engine gave it up ("hung or terminated unexpectedly").
var fuzzLimits = limits.Limits{TemplateSteps: 20_000, TemplateSize: 1 << 20, TemplateTime: 250 * time.Millisecond, SpiffDepth: 50, YAMLNodes: 100_000}

// FuzzGoTemplate renders GoTemplates of any text: Execute returns output or
// an error within the limits, and no panic of lscli's own escapes. The
// seed corpus is in testdata/fuzz/FuzzGoTemplate.
func FuzzGoTemplate(f *testing.F) {
	for _, s := range []string{
		"deployItems:\n- name: {{ .imports.name }}\n",
		`{{ range $i, $v := until 10 }}{{ $v | toString | repeat 3 }}{{ end }}`,
		`{{ $d := dict "a" (list 1 2) }}{{ toYaml $d }}{{ include "templates/labels.tpl" "x" }}`,
		`{{ define "t" }}{{ . }}{{ end }}{{ template "t" now }}{{ uuidv4 }}{{ randAlphaNum 5 }}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		e := &Executor{FS: blueprintFiles}
		_, err := e.Execute(Request{Execution: goExec(text), Values: map[string]any{"imports": map[string]any{"name": "x"}},
			Stateful: true, CheckNoValue: true, Limits: fuzzLimits})
		if ce := crash.As(err); ce != nil && ce.Component == crash.Own {
			t.Fatalf("lscli panicked: %v\n%s", ce, ce.Stack)
		}
	})
}

// FuzzSpiff renders Spiff templates of any text, as FuzzGoTemplate does;
// a recursion that overflowed the stack would end the fuzzer. The seed
// corpus is in testdata/fuzz/FuzzSpiff.
func FuzzSpiff(f *testing.F) {
	for _, s := range []string{
		"x: (( imports.name \"-\" 1 ))\n",
		"f: '(( |x|->x <= 0 ? 0 : _(x - 1) ))'\nr: (( .f(3) ))\n",
		"l: (( map[[1..5]|x|->x * 2] ))\ns: (( sum[l|0|a,e|->a + e] ))\n",
		"t:\n  <<: (( &template ))\n  v: (( v ))\nx: (( *t ))\n",
		"e: (( eval(\"[1..3]\") ))\nfmt: (( format(\"%d\", 3) ))\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ex := lsv1alpha1.TemplateExecutor{Name: "main", Type: lsv1alpha1.SpiffTemplateType, Template: lsv1alpha1.NewAnyJSON(mustJSON(text))}
		e := &Executor{FS: blueprintFiles}
		_, err := e.Execute(Request{Execution: ex, Values: map[string]any{"imports": map[string]any{"name": "x"}},
			Stateful: true, Limits: fuzzLimits})
		if ce := crash.As(err); ce != nil && ce.Component == crash.Own {
			t.Fatalf("lscli panicked: %v\n%s", ce, ce.Stack)
		}
	})
}

// mustJSON returns s as a JSON string.
func mustJSON(s string) []byte {
	data, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return data
}
