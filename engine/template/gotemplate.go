package template

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	gotmpl "text/template"
)

// inlineName is the name of an inline GoTemplate in text/template's errors.
const inlineName = "template"

// maxIncludeDepth bounds how often one file may be included within itself,
// as Landscaper does.
const maxIncludeDepth = 100

// goRun is one GoTemplate execution with its include bookkeeping.
type goRun struct {
	e *Executor
	// included counts the active includes of each file.
	included map[string]int
	funcs    gotmpl.FuncMap
}

// executeGo renders a GoTemplate execution.
func (e *Executor) executeGo(req Request) (*Result, error) {
	raw, file, err := e.source(req.Execution)
	if err != nil {
		return nil, err
	}
	text := string(raw)
	if file == "" {
		if err := json.Unmarshal(raw, &text); err != nil {
			return nil, fmt.Errorf("a GoTemplate template must be a string (template: |): %w", err)
		}
	}
	values := maps.Clone(req.Values)
	if values == nil {
		values = map[string]any{}
	}
	if req.Stateful {
		if values["state"], err = decodeState(req.State); err != nil {
			return nil, err
		}
	}
	r := &goRun{e: e, included: map[string]int{}}
	r.funcs = r.funcMap()
	name := file
	if name == "" {
		name = inlineName
	}
	out, err := r.execute(name, text, values)
	if err != nil {
		return nil, newGoError(err, name, text, e.FS)
	}
	if req.CheckNoValue {
		if err := checkNoValue(out); err != nil {
			return nil, err
		}
	}
	res := &Result{Output: out}
	if req.Stateful {
		res.State, _ = outputState(out)
	}
	return res, nil
}

// execute parses and runs one template text.
func (r *goRun) execute(name, text string, data any) ([]byte, error) {
	t, err := gotmpl.New(name).Option("missingkey=zero").Funcs(r.funcs).Parse(text)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := t.Execute(&out, data); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// include is Landscaper's include: it reads a file of the blueprint and
// renders it as a template with binding.
func (r *goRun) include(p string, binding any) (string, error) {
	name := cleanPath(p)
	if r.included[name] >= maxIncludeDepth {
		return "", fmt.Errorf("include %q: included within itself more than %d times", p, maxIncludeDepth)
	}
	data, err := r.e.readFile(name)
	if err != nil {
		return "", fmt.Errorf("include %q: %w", p, err)
	}
	r.included[name]++
	defer func() { r.included[name]-- }()
	out, err := r.execute(name, string(data), binding)
	return string(out), err
}
