package spiff

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lscli/lscli/internal/limits"
)

// TestSpiffLimits: recursive lambdas end at the depth limit instead of
// overflowing the stack (which would end the process), big ranges and
// formats are refused before they are made, and eval, lambda strings and
// files read() evaluates are guarded too.
func TestSpiffLimits(t *testing.T) {
	small := limits.Limits{TemplateSteps: 100_000, TemplateSize: 1 << 20, SpiffDepth: 50}
	files, err := FileSystem(fstest.MapFS{"lib.yaml": {Data: []byte("r: (( length([1..999999999]) ))\n")}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tmpl string
		err        string
	}{
		{name: "recursive lambda", tmpl: `{"x": "(( |x|->x <= 0 ? 0 : _(x - 1) ))", "r": "(( .x(100000000) ))"}`,
			err: "lambda calls nest more than 50 deep (a recursion without end?), more than limits.spiffDepth (50)"},
		{name: "recursion through a node", tmpl: `{"f": "(( |x|->x <= 0 ? 0 : .f(x - 1) ))", "r": "(( .f(100000000) ))"}`,
			err: "more than limits.spiffDepth (50)"},
		{name: "exponential calls", tmpl: `{"f": "(( |x|->x <= 0 ? 0 : .f(x - 1) + .f(x - 1) ))", "r": "(( .f(40) ))"}`,
			err: "the template takes more than 100000 steps"},
		{name: "doubling string", tmpl: `{"f": "(( |s,n|->n <= 0 ? s : .f(s s, n - 1) ))", "r": "(( .f(\"ab\", 40) ))"}`,
			err: "the arguments of a lambda would be at least"},
		{name: "huge range", tmpl: `{"r": "(( [1..2000000000] ))"}`,
			err: "the range [1..2000000000] would be 128,000,000,000 bytes, more than limits.templateSize (1Mi)"},
		{name: "range from a value", tmpl: `{"n": 100000000, "r": "(( length([1..n]) ))"}`, err: "the range [1..100000000]"},
		{name: "format width", tmpl: `{"r": "(( format(\"%0999999999d\", 1) ))"}`, err: "the result of format would be"},
		{name: "eval", tmpl: `{"r": "(( eval(\"[1..\" \"999999999]\") ))"}`, err: "the range [1..999999999]"},
		{name: "lambda string", tmpl: `{"f": "(( lambda (\"|x|->x <= 0 ? 0 : _(x - 1)\") ))", "r": "(( .f(100000000) ))"}`,
			err: "more than limits.spiffDepth (50)"},
		{name: "read file", tmpl: `{"r": "(( read(\"/lib.yaml\").r ))"}`, err: "the range [1..999999999]"},
		{name: "random", tmpl: `{"r": "(( rand(10) ))"}`, err: "rand() is not available in lscli: its result depends on a secure random source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Execute(Request{Name: "main", FS: files, Template: []byte(tt.tmpl), Limits: small})
			if err == nil || !strings.Contains(tidy(err.Error()), tt.err) {
				t.Fatalf("err = %v\nwant %q (output %v)", err, tt.err, res)
			}
		})
	}
}

// TestSpiffGuardsAreInvisible: guarded lambdas, ranges and formats render
// as before, and a lambda value in the output reads as the template wrote it.
func TestSpiffGuardsAreInvisible(t *testing.T) {
	tmpl := `{"sum": "(( sum[[1..4]|0|s,e|->s + e] ))", "fmt": "(( format(\"%03d\", 7) ))", "ev": "(( eval(\"1 + 2\") ))",
		"fn": "(( |x|->x * 2 ))", "twice": "(( .fn(21) ))", "slice": "(( [1..5].[1..2] ))", "down": "(( [3..1] ))"}`
	res, err := Execute(Request{Name: "main", Template: []byte(tmpl)})
	if err != nil {
		t.Fatal(err)
	}
	want := "down:\n- 3\n- 2\n- 1\nev: 3\nfmt: \"007\"\nfn: (( lambda|x|->x * 2 ))\nslice:\n- 2\n- 3\nsum: 10\ntwice: 42\n"
	if string(res.Output) != want {
		t.Errorf("output:\n%s\nwant:\n%s", res.Output, want)
	}
}

// TestSpiffTimeLimit: a template that loops where no step sees it (a
// template instantiating itself) ends at the time limit.
func TestSpiffTimeLimit(t *testing.T) {
	tmpl := "t:\n  <<: (( &template ))\n  a: (( *t ))\nx: (( *t ))\n"
	_, err := Execute(Request{Name: "main", Template: []byte(tmpl), Limits: limits.Limits{TemplateTime: 50 * time.Millisecond}})
	if err == nil || !strings.Contains(err.Error(), "the template renders for longer, more than limits.templateTime (50ms)") {
		t.Fatalf("err = %v", err)
	}
}

func tidy(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestSpiffYAMLAliases: templates, states and files whose aliases would
// expand past the limit are refused before Spiff's parser expands them.
func TestSpiffYAMLAliases(t *testing.T) {
	bomb := "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 9; i++ {
		bomb += fmt.Sprintf("a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	want := "its aliases expand it to more than 10000000 nodes, more than limits.yamlNodes (10000000)"
	if _, err := Execute(Request{Name: "main", Template: []byte(bomb)}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("template: err = %v", err)
	}
	if _, err := Execute(Request{Name: "main", Template: []byte("a: 1"), Stateful: true, State: []byte(bomb)}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("state: err = %v", err)
	}
	if _, err := Map("m", []byte(bomb), nil, limits.Limits{}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("mapping: err = %v", err)
	}
	if _, err := FileSystem(fstest.MapFS{"bomb.yaml": {Data: []byte(bomb)}}, 0); err == nil || !strings.Contains(err.Error(), "bomb.yaml: document 1: "+want) {
		t.Errorf("file: err = %v", err)
	}
}

// TestSpiffErrorsShowTheTemplate: Spiff's messages show expressions as the
// template wrote them, without lscli's guards.
func TestSpiffErrorsShowTheTemplate(t *testing.T) {
	tmpl := `{"f": "(( |x|->x.nope ))", "r": "(( .f(1) ))", "l": "(( [1..n] ))"}`
	_, err := Execute(Request{Name: "main", Template: []byte(tmpl)})
	if err == nil || strings.Contains(err.Error(), probePrefix) || !strings.Contains(err.Error(), "x.nope") || !strings.Contains(err.Error(), "[1..n]") {
		t.Fatalf("err = %v", err)
	}
}
