package template

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// blueprintFiles are the files the test executions read.
var blueprintFiles = fstest.MapFS{
	"templates/deploy.yaml":    {Data: []byte("name: {{ .imports.name }}\n")},
	"templates/labels.tpl":     {Data: []byte("app: {{ . }}")},
	"templates/recursive.tpl":  {Data: []byte(`{{ include "templates/recursive.tpl" . }}`)},
	"templates/broken.tpl":     {Data: []byte("x: {{ .a.b.c }}")},
	"templates/unparsable.tpl": {Data: []byte("a: 1\nb: {{ .x }\n")},
	"config/banner.txt":        {Data: []byte("hello\n")},
	"spiff/deploy.yaml":        {Data: []byte("value: (( imports.name \"-x\" ))\n")},
}

// goExec is a GoTemplate execution of text.
func goExec(text string) lsv1alpha1.TemplateExecutor {
	raw, _ := json.Marshal(text)
	return lsv1alpha1.TemplateExecutor{Name: "main", Type: lsv1alpha1.GOTemplateType, Template: lsv1alpha1.NewAnyJSON(raw)}
}

func TestExecuteGoTemplate(t *testing.T) {
	values := map[string]any{"imports": map[string]any{"name": "app", "list": []any{"b", "a"}}}
	tests := []struct {
		name, text, want string
	}{
		{name: "binding", text: "x: {{ .imports.name }}", want: "x: app"},
		{name: "sprig", text: `x: {{ .imports.list | sortAlpha | join "," | upper }}`, want: "x: A,B"},
		{name: "missing key is zero", text: `x: {{ .imports.nope | default "d" }}`, want: "x: d"},
		{name: "include", text: `x: {{ include "templates/labels.tpl" "web" }}`, want: "x: app: web"},
		{name: "readFile", text: `x: {{ readFile "/config/banner.txt" | toString | trim }}`, want: "x: hello"},
		{name: "readDir", text: `x: {{ range readDir "templates" }}{{ .Name }} {{ end }}`, want: "x: broken.tpl deploy.yaml labels.tpl recursive.tpl unparsable.tpl "},
		{name: "toYaml", text: `x: {{ dict "a" 1 | toYaml }}`, want: "x: a: 1"},
		{name: "fromYaml", text: `x: {{ (fromYaml "a: [1, 2]").a | len }}`, want: "x: 2"},
		{name: "parseOCIRef", text: `x: {{ index (parseOCIRef "r.io/app:1.2") 1 }} {{ ociRefRepo "r.io/app:1.2" }} {{ ociRefVersion "r.io/app@sha256:6637a0a2e3d0d93e3ee1c2e8e0d2fd5ae0b31ab7e0a8a8d4f5c9b7c9c2e5f2d1" }}`,
			want: "x: 1.2 r.io/app sha256:6637a0a2e3d0d93e3ee1c2e8e0d2fd5ae0b31ab7e0a8a8d4f5c9b7c9c2e5f2d1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Executor{FS: blueprintFiles}
			res, err := e.Execute(Request{Execution: goExec(tt.text), Values: values, CheckNoValue: true})
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Output) != tt.want {
				t.Errorf("output = %q, want %q", res.Output, tt.want)
			}
		})
	}
}

func TestExecuteGoTemplateFile(t *testing.T) {
	e := &Executor{FS: blueprintFiles}
	ex := lsv1alpha1.TemplateExecutor{Name: "main", Type: lsv1alpha1.GOTemplateType, File: "/templates/deploy.yaml"}
	res, err := e.Execute(Request{Execution: ex, Values: map[string]any{"imports": map[string]any{"name": "web"}}})
	if err != nil || string(res.Output) != "name: web\n" {
		t.Fatalf("Execute = %q, %v", res.Output, err)
	}
}

func TestEnvFunctionsAreRemoved(t *testing.T) {
	e := &Executor{}
	_, err := e.Execute(Request{Execution: goExec(`{{ env "HOME" }}`)})
	var te *Error
	if !errors.As(err, &te) || !strings.Contains(err.Error(), `function "env" not defined`) {
		t.Fatalf("err = %v, want env not defined", err)
	}
}

// TestRemovedFunctionHint: a template that calls resolve, which Landscaper
// removed in v0.109.0, fails as in Landscaper (function not defined), and the
// error says what to call instead. gardener/landscaper-examples'
// render-blueprint/resource-in-cd still calls it.
func TestRemovedFunctionHint(t *testing.T) {
	e := &Executor{}
	_, err := e.Execute(Request{Execution: goExec(`chart: {{ resolve ( $.access ) | toString | b64enc }}`)})
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a template error", err)
	}
	for _, want := range []string{`function "resolve" not defined`, "Landscaper removed", "v0.109.0", `getResourceContent "cd://resources/<name>"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q in it", err, want)
		}
	}
	_, err = e.Execute(Request{Execution: goExec(`{{ nosuchfunc 1 }}`)})
	if err == nil || strings.Contains(err.Error(), "Landscaper removed") {
		t.Errorf("err = %v, want no hint for a function Landscaper never had", err)
	}
}

func TestGoTemplateState(t *testing.T) {
	e := &Executor{}
	text := "state: {{ add (default 0 .state.count) 1 | dict \"count\" | toJson }}"
	res, err := e.Execute(Request{Execution: goExec(text), Stateful: true})
	if err != nil || string(res.State) != `{"count":1}` {
		t.Fatalf("first run: state %s, %v", res.State, err)
	}
	res, err = e.Execute(Request{Execution: goExec(text), Stateful: true, State: res.State})
	if err != nil || string(res.State) != `{"count":2}` {
		t.Fatalf("second run: state %s, %v", res.State, err)
	}
	for range 2 { // the second decode is served from DecodeYAML's cache
		res, err = e.Execute(Request{Execution: goExec("x: 1"), Stateful: true, State: []byte(`{"count": 2}`)})
		if err != nil || res.State != nil {
			t.Fatalf("no state key: state %s, %v", res.State, err)
		}
	}
}

// TestGoTemplateStateNull: a state key that is null or empty is stored as
// null, as Landscaper's gotemplate.storeState stores it (the raw message
// "null" is not empty); the next execution's state binding is then nil.
func TestGoTemplateStateNull(t *testing.T) {
	e := &Executor{}
	// Each text twice: the second decode is served from DecodeYAML's cache.
	for _, text := range []string{"state: null", "state: null", "state: ~", "state:", "state:\nx: 1", "state:\nx: 1"} {
		res, err := e.Execute(Request{Execution: goExec(text), Stateful: true, State: []byte(`{"v":1}`)})
		if err != nil || string(res.State) != "null" {
			t.Errorf("%q: state %q, %v; want null", text, res.State, err)
		}
	}
	res, err := e.Execute(Request{Execution: goExec("kind: {{ kindOf .state }}"), Stateful: true, State: []byte("null")})
	if err != nil || string(res.Output) != "kind: invalid" {
		t.Errorf("after null: output %q, %v; want kind: invalid", res.Output, err)
	}
}

func TestGoTemplateErrors(t *testing.T) {
	tests := []struct {
		name, text, want, snippet string
		// goMsg is Landscaper's message (Error.Go), "" when not checked;
		// parse says whether it is a parse error; noGo wants none.
		goMsg       string
		parse, noGo bool
		// included is the source of an included file that does not
		// parse (Error.Go.Included).
		included string
		// goSuffix is the end of Landscaper's message, when goMsg is not
		// checked whole.
		goSuffix string
	}{
		{name: "parse", text: "a: 1\nb: {{ .x }\n", want: "line 2: unexpected \"}\" in operand",
			goMsg: `template: execution:2: unexpected "}" in operand`, parse: true},
		{name: "execute", text: "a: 1\nb: {{ .x.y.z }}", want: "line 2, column 8: at <.x.y.z>: nil pointer evaluating interface {}.y",
			snippet: "    2 | b: {{ .x.y.z }}\n      |        ^\n",
			goMsg:   `template: execution:2:8: executing "execution" at <.x.y.z>: nil pointer evaluating interface {}.y`},
		{name: "defined template", text: `{{ define "t" }}{{ .x.y.z }}{{ end }}a: {{ template "t" . }}`, want: "at <.x.y.z>",
			goMsg: `template: execution:1:21: executing "t" at <.x.y.z>: nil pointer evaluating interface {}.y`},
		{name: "no value", text: "a: 1\nb: {{ .x }}", want: `output line 2, column 4: the template rendered <no value>, so a value it reads does not exist: "b: <no value>"`, noGo: true},
		{name: "in included file", text: `a: {{ include "templates/broken.tpl" . }}`,
			want: "templates/broken.tpl line 1, column 8: at <.a.b.c>: nil pointer evaluating interface {}.b",
			goMsg: `template: execution:1:6: executing "execution" at <include "templates/broken.tpl" .>: error calling include: ` +
				`template: execution:1:8: executing "execution" at <.a.b.c>: nil pointer evaluating interface {}.b`},
		{name: "included file does not parse", text: `a: {{ include "templates/unparsable.tpl" . }}`,
			want: "templates/unparsable.tpl line 2: unexpected \"}\" in operand", included: "a: 1\nb: {{ .x }\n",
			goMsg: `template: execution:1:6: executing "execution" at <include "templates/unparsable.tpl" .>: error calling include: ` +
				`template: execution:2: unexpected "}" in operand`},
		{name: "include missing", text: `a: {{ include "nope.tpl" . }}`, want: `error calling include: include "nope.tpl": open nope.tpl: file does not exist`,
			goMsg: `template: execution:1:6: executing "execution" at <include "nope.tpl" .>: error calling include: unable to read include file "nope.tpl": file does not exist`},
		{name: "include in a missing directory", text: `a: {{ include "nope/x.tpl" . }}`, want: `error calling include: include "nope/x.tpl": open nope/x.tpl: file does not exist`,
			goMsg: `template: execution:1:6: executing "execution" at <include "nope/x.tpl" .>: error calling include: unable to read include file "nope/x.tpl":  /nope: file does not exist`},
		{name: "include recursion", text: `a: {{ include "templates/recursive.tpl" . }}`, want: "included within itself more than 100 times",
			goSuffix: `error calling include: rendering template has a nested reference name: templates/recursive.tpl: unable to execute template`},
		{name: "cluster function without its arguments", text: `a: {{ getServiceAccountKubeconfig }}`, want: "templating function getServiceAccountToken expects 4 arguments"},
		{name: "cluster function without clusters", text: `a: {{ getServiceAccountKubeconfig "sa" "default" 3600 (dict "spec" (dict "config" (dict "kubeconfig" "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://c.example'}}]\ncontexts: [{name: c, context: {cluster: c}}]\ncurrent-context: c\n"))) }}`, want: "the function asks the cluster behind the target, and a dry run has no clusters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Executor{FS: blueprintFiles}
			_, err := e.Execute(Request{Execution: goExec(tt.text), Values: map[string]any{}, CheckNoValue: true})
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("err = %v (%T), want *Error", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q\nwant %q", err, tt.want)
			}
			if tt.snippet != "" && !strings.Contains(te.Snippet(), tt.snippet) {
				t.Errorf("snippet =\n%s\nwant\n%s", te.Snippet(), tt.snippet)
			}
			switch {
			case tt.noGo && te.Go != nil:
				t.Errorf("Go = %+v, want none", te.Go)
			case tt.goSuffix != "" && (te.Go == nil || !strings.HasSuffix(te.Go.Message, tt.goSuffix)):
				t.Errorf("Go = %+v, want a message ending in %q", te.Go, tt.goSuffix)
			case tt.goMsg != "" && te.Go == nil:
				t.Errorf("Go = nil, want %q", tt.goMsg)
			case tt.goMsg != "" && (te.Go.Message != tt.goMsg || te.Go.Parse != tt.parse || te.Go.Source != tt.text):
				t.Errorf("Go = %+v, want %q (parse %v) with the template", te.Go, tt.goMsg, tt.parse)
			case tt.goMsg != "" && (te.Go.Included != tt.included ||
				tt.included != "" && !strings.HasPrefix(te.Go.Message[te.Go.IncludedAt:], "template: execution:2: ")):
				t.Errorf("Go = %+v, want the included source %q and where its error starts", te.Go, tt.included)
			}
		})
	}
}

func TestExecuteSourceErrors(t *testing.T) {
	tests := []struct {
		name string
		ex   lsv1alpha1.TemplateExecutor
		want string
	}{
		{name: "unknown type", ex: lsv1alpha1.TemplateExecutor{Name: "x", Type: "Jinja", File: "a"},
			want: `unknown template type "Jinja" (allowed: GoTemplate, Spiff)`},
		{name: "missing file", ex: lsv1alpha1.TemplateExecutor{Name: "x", Type: "GoTemplate", File: "nope.yaml"},
			want: "read template file: open nope.yaml: file does not exist"},
		{name: "no template", ex: lsv1alpha1.TemplateExecutor{Name: "x", Type: "GoTemplate"}, want: "has neither file nor template"},
		{name: "not a string", ex: lsv1alpha1.TemplateExecutor{Name: "x", Type: "GoTemplate", Template: lsv1alpha1.NewAnyJSON([]byte(`{"a": 1}`))},
			want: "a GoTemplate template must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := (&Executor{FS: blueprintFiles}).Execute(Request{Execution: tt.ex})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestExecuteSpiff(t *testing.T) {
	values := map[string]any{"imports": map[string]any{"name": "app"}}
	tests := []struct {
		name string
		ex   lsv1alpha1.TemplateExecutor
		want string
	}{
		{name: "yaml template", want: "value: app\n", ex: lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType,
			Template: lsv1alpha1.NewAnyJSON([]byte(`{"value": "(( imports.name ))"}`))}},
		{name: "string template", want: "value: app-y\n", ex: lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType,
			Template: lsv1alpha1.NewAnyJSON([]byte(`"value: (( imports.name \"-y\" ))"`))}},
		{name: "file", want: "value: app-x\n", ex: lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType, File: "spiff/deploy.yaml"}},
		{name: "oci function", want: "value: \"1.0\"\n", ex: lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType,
			Template: lsv1alpha1.NewAnyJSON([]byte(`{"value": "(( ociRefVersion(\"r.io/a:1.0\") ))"}`))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := (&Executor{FS: blueprintFiles}).Execute(Request{Execution: tt.ex, Values: values})
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Output) != tt.want {
				t.Errorf("output = %q, want %q", res.Output, tt.want)
			}
		})
	}
}

// A Spiff template that does not evaluate is an *Error with Spiff's
// message on one line, and Spiff's message as Landscaper gets it in Spiff
// (see spiff.EvalError); a limit exceeded has no Landscaper message.
func TestSpiffErrors(t *testing.T) {
	ex := lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType, File: "spiff/deploy.yaml"}
	_, err := (&Executor{FS: blueprintFiles}).Execute(Request{Execution: ex, Values: map[string]any{}})
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("err = %#v, want an *Error", err)
	}
	if want := `spiff/deploy.yaml: unresolved nodes: (( imports.name "-x" )) in s value () *'imports' not found`; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if want := "unresolved nodes:\n\t(( imports.name \"-x\" ))\tin template\tvalue\t()\t*'imports' not found"; te.Spiff != want {
		t.Errorf("Spiff = %q, want %q", te.Spiff, want)
	}

	ex = lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType, Template: lsv1alpha1.NewAnyJSON([]byte(`{"l": "(( [1..100000000] ))"}`))}
	_, err = (&Executor{}).Execute(Request{Execution: ex})
	if !errors.As(err, &te) || te.Spiff != "" || !strings.Contains(err.Error(), "limits.templateSize") {
		t.Errorf("err = %v (Spiff %q), want a limit exceeded without Landscaper's message", err, te.Spiff)
	}
}

func TestSpiffState(t *testing.T) {
	tmpl := `{"first": "(( state.first ))", "state": {"<<<": "(( &state ))", "first": "(( imports.name ))"}}`
	ex := lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType, Template: lsv1alpha1.NewAnyJSON([]byte(tmpl))}
	e := &Executor{}
	res, err := e.Execute(Request{Execution: ex, Stateful: true, Values: map[string]any{"imports": map[string]any{"name": "a"}}})
	if err != nil || string(res.State) != "state:\n  first: a\n" {
		t.Fatalf("first run: state %q, %v", res.State, err)
	}
	res, err = e.Execute(Request{Execution: ex, Stateful: true, State: res.State, Values: map[string]any{"imports": map[string]any{"name": "b"}}})
	if err != nil || !strings.Contains(string(res.Output), "first: a") {
		t.Fatalf("second run keeps the first value: %s, %v", res.Output, err)
	}
}

// TestSpiffStateWithoutNodes: as Landscaper's spiff templater, which stores
// spiffyaml.Marshal(DetermineState(res)) whenever it is not empty, a
// template without state nodes has the state "{}", which replaces an older
// one.
func TestSpiffStateWithoutNodes(t *testing.T) {
	ex := lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType, Template: lsv1alpha1.NewAnyJSON([]byte(`{"x": 1}`))}
	res, err := (&Executor{}).Execute(Request{Execution: ex, Stateful: true, State: []byte("state:\n  first: a\n")})
	if err != nil || string(res.State) != "{}\n" {
		t.Fatalf("state %q, %v; want {}", res.State, err)
	}
}

func TestSpiffError(t *testing.T) {
	ex := lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType, Template: lsv1alpha1.NewAnyJSON([]byte(`{"v": "(( imports.nope ))"}`))}
	_, err := (&Executor{}).Execute(Request{Execution: ex, Values: map[string]any{"imports": map[string]any{}}})
	var te *Error
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "'imports.nope' not found") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %q, want one line naming imports.nope", err)
	}
}

// TestIncludeDepth: as Landscaper's include, which fails when a file is
// already active more than 100 times, 101 nested includes of one file
// render and 102 fail.
func TestIncludeDepth(t *testing.T) {
	e := &Executor{FS: fstest.MapFS{"rec.tpl": {Data: []byte(`{{ if gt .n 0 }}{{ include "rec.tpl" (dict "n" (sub .n 1)) }}{{ else }}bottom{{ end }}`)}}}
	for n, ok := range map[int]bool{99: true, 100: true, 101: false} {
		text := fmt.Sprintf(`x: {{ include "rec.tpl" (dict "n" %d) }}`, n)
		res, err := e.Execute(Request{Execution: goExec(text)})
		switch {
		case ok && (err != nil || string(res.Output) != "x: bottom"):
			t.Errorf("%d nested includes: %v, want them rendered", n+1, err)
		case !ok && (err == nil || !strings.Contains(err.Error(), "included within itself more than 100 times")):
			t.Errorf("%d nested includes: %v, want the include limit", n+1, err)
		}
	}
}

// TestInlineTemplateWinsOverFile: an execution with both template and file
// renders its template, as Landscaper's getTemplateFromExecution
// (GoTemplate) and templateNode (Spiff) look at the template first; its
// blueprint validation does not refuse the pair.
func TestInlineTemplateWinsOverFile(t *testing.T) {
	fsys := fstest.MapFS{"deploy.yaml": {Data: []byte("from: file\n")}}
	gox := goExec("from: template")
	gox.File = "deploy.yaml"
	spx := lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType, File: "deploy.yaml",
		Template: lsv1alpha1.NewAnyJSON([]byte(`{"from": "template"}`))}
	for _, ex := range []lsv1alpha1.TemplateExecutor{gox, spx} {
		res, err := (&Executor{FS: fsys}).Execute(Request{Execution: ex})
		if err != nil || strings.TrimSpace(string(res.Output)) != "from: template" {
			t.Errorf("%s: output %q, %v; want the inline template's", ex.Type, res.Output, err)
		}
	}
}
