package spiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
	"github.com/mandelsoft/vfs/pkg/memoryfs"
	"github.com/mandelsoft/vfs/pkg/vfs"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/landscaper/template/budget"
)

// Request is one Spiff template execution.
type Request struct {
	// Template is the template: a YAML document, or a string holding one.
	Template []byte
	// Name names the template in Spiff's messages, e.g. the execution name.
	Name string
	// FS holds the blueprint's files for Spiff's file functions. Nil means none.
	FS vfs.FileSystem
	// Functions are extra functions, e.g. from NewFunctions. Nil means none.
	Functions spiffing.Functions
	// Values are bound at the top level of the template.
	Values map[string]any
	// Stateful turns on Spiff's state handling with State as the old state.
	Stateful bool
	// State is the state stored by the last execution; nil means none yet.
	State []byte
	// Limits bound the execution; zero fields mean the defaults.
	Limits limits.Limits
}

// Result is what an execution rendered.
type Result struct {
	// Output is the rendered document as YAML.
	Output []byte
	// State is the new state to store, as Spiff's YAML; "{}\n" when the
	// template has no state nodes.
	State []byte
}

// Component names Spiff in crash errors.
const Component = "spiff"

// Execute renders req within req.Limits (see guard.go). A panic in Spiff is
// returned as a *crash.Error.
func Execute(req Request) (*Result, error) {
	b := budget.New(req.Limits)
	defer b.Done()
	return runLimited(b, func() (*Result, error) { return execute(req, b) })
}

// execute renders req, spending from b.
func execute(req Request, b *budget.Budget) (*Result, error) {
	tmpl, err := parseTemplate(req.Name, req.Template, b.Limits().YAMLNodes)
	if err != nil {
		return nil, err
	}
	if tmpl, _, err = rewriteNode(tmpl); err != nil {
		return nil, err
	}
	fns := req.Functions
	if fns == nil {
		fns = spiffing.NewFunctions()
	}
	g := newGuard(b)
	g.register(fns)
	s, err := newSpiff(req.FS, fns, req.Values)
	if err != nil {
		return nil, err
	}
	var states []spiffyaml.Node
	if req.Stateful {
		st, err := stateNode(req.State, b.Limits().YAMLNodes)
		if err != nil {
			return nil, err
		}
		states = append(states, st)
	}
	res, err := s.Cascade(tmpl, nil, states...)
	if err != nil {
		return nil, g.explain(err, templateName(req.Name))
	}
	out, err := marshal(b, res)
	if err != nil {
		return nil, err
	}
	result := &Result{Output: out}
	if req.Stateful {
		result.State, err = determineState(s, res)
	}
	return result, err
}

// marshal writes a result as YAML, within the size limit, with the
// expressions Spiff writes out (lambda values) as the template had them.
func marshal(b *budget.Budget, res spiffyaml.Node) ([]byte, error) {
	if _, err := b.ValuesSize("the rendered output", res); err != nil {
		return nil, err
	}
	out, err := spiffyaml.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("marshal result: %w", err)
	}
	if !bytes.Contains(out, []byte(probePrefix)) {
		return out, nil
	}
	node, err := spiffyaml.Unmarshal("output", out)
	if err != nil {
		return nil, fmt.Errorf("marshal result: %w", err)
	}
	if node, _, err = walkNode(node, unrewriteSource); err != nil {
		return nil, err
	}
	return spiffyaml.Marshal(node)
}

// runLimited runs f on a goroutine of its own and returns its result, or,
// when the time limit of b passes first, the error saying so: Spiff has
// loops of its own that no step of b sees (a template instantiating
// itself). f then goes on in the background until it ends or reaches a
// step, which fails from then on. A panic in f is returned as a
// *crash.Error.
func runLimited[T any](b *budget.Budget, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() { done <- r }()
		defer crash.Recover(Component, &r.err)
		r.v, r.err = f()
	}()
	timer := time.NewTimer(b.Limits().TemplateTime)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.v, r.err
	case <-timer.C:
		var zero T
		return zero, b.TimeUp()
	}
}

// newSpiff returns a Spiff context without OS access and with values bound.
func newSpiff(fs vfs.FileSystem, fns spiffing.Functions, values map[string]any) (spiffing.Spiff, error) {
	if fs == nil {
		fs = memoryfs.New() // without one, Spiff would read the host's files
	}
	s := spiffing.Plain().WithMode(spiffing.MODE_FILE_ACCESS).WithFileSystem(fs)
	if fns == nil {
		fns = spiffing.NewFunctions()
	}
	s, err := s.WithFunctions(fns).WithValues(values)
	if err != nil {
		return nil, fmt.Errorf("bind values: %w", err)
	}
	return s, nil
}

// templateName is the name a template is parsed with, which Spiff's
// messages show: name, or "template" when it is "".
func templateName(name string) string {
	if name == "" {
		return landscaperTemplateName
	}
	return name
}

// parseTemplate reads a template given as YAML or as a string of YAML,
// which may hold at most maxNodes nodes once its aliases are expanded
// (Spiff's parser expands them).
func parseTemplate(name string, raw []byte, maxNodes int64) (spiffyaml.Node, error) {
	name = templateName(name)
	node, err := parseYAML(name, raw, maxNodes)
	if err != nil {
		return nil, err
	}
	if text, ok := node.Value().(string); ok {
		if node, err = parseYAML(name, []byte(text), maxNodes); err != nil {
			return nil, err
		}
	}
	return node, nil
}

// ParseError is a template that Spiff's YAML parser rejects. Its message
// is "parse template: " and the parser's, which Landscaper's spiff
// templater returns as it is (templateNode).
type ParseError struct {
	// Err is the parser's error.
	Err error
}

// Error is "parse template: " and the parser's message.
func (e *ParseError) Error() string { return "parse template: " + e.Err.Error() }

// Unwrap returns the parser's error.
func (e *ParseError) Unwrap() error { return e.Err }

// parseYAML is unmarshal for a template: the parser's errors are
// *ParseError, a template beyond maxNodes is not.
func parseYAML(name string, data []byte, maxNodes int64) (spiffyaml.Node, error) {
	if err := limits.CheckYAML(data, maxNodes); err != nil {
		return nil, fmt.Errorf("parse template: %w", err)
	}
	node, err := spiffyaml.Unmarshal(name, data)
	if err != nil {
		return nil, &ParseError{Err: err}
	}
	return node, nil
}

// unmarshal parses YAML of at most maxNodes nodes, aliases expanded.
func unmarshal(name string, data []byte, maxNodes int64) (spiffyaml.Node, error) {
	if err := limits.CheckYAML(data, maxNodes); err != nil {
		return nil, err
	}
	return spiffyaml.Unmarshal(name, data)
}

// stateNode is the state node for a Cascade: the stored state or an empty
// map. Its expressions are guarded as the template's are.
func stateNode(state []byte, maxNodes int64) (spiffyaml.Node, error) {
	if len(state) == 0 {
		return spiffyaml.NewNode(map[string]any{}, "state"), nil
	}
	node, err := unmarshal("state", state, maxNodes)
	if err != nil {
		return nil, fmt.Errorf("read stored state: %w", err)
	}
	node, _, err = rewriteNode(node)
	return node, err
}

// determineState returns the state nodes of res as Spiff's YAML, as
// Landscaper's spiff templater stores them (spiffyaml.Marshal of
// DetermineState): a result without state nodes gives "{}\n", which
// replaces an older state; nil only when there is nothing to marshal.
func determineState(s spiffing.Spiff, res spiffyaml.Node) ([]byte, error) {
	st := s.DetermineState(res)
	data, err := spiffyaml.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("marshal state: %w", err)
	}
	if bytes.Contains(data, []byte(probePrefix)) {
		if st, err = spiffyaml.Unmarshal("state", data); err == nil {
			if st, _, err = walkNode(st, unrewriteSource); err == nil {
				data, err = spiffyaml.Marshal(st)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("marshal state: %w", err)
		}
	}
	if len(data) == 0 {
		return nil, nil
	}
	return data, nil
}

// Map renders one data mapping (an entry of importDataMappings or
// exportDataMappings) within lim: the template is JSON (any YAML value,
// usually a Spiff expression string), the values are bound at the top
// level. A panic in Spiff is returned as a *crash.Error.
func Map(name string, tmpl json.RawMessage, values map[string]any, lim limits.Limits) (any, error) {
	b := budget.New(lim)
	defer b.Done()
	return runLimited(b, func() (any, error) { return mapValue(name, tmpl, values, b) })
}

// mapValue is Map, spending from b.
func mapValue(name string, tmpl json.RawMessage, values map[string]any, b *budget.Budget) (out any, err error) {
	if err := limits.CheckYAML(tmpl, b.Limits().YAMLNodes); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	node, err := spiffyaml.Unmarshal(name, tmpl)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	if node, _, err = rewriteNode(node); err != nil {
		return nil, err
	}
	fns := spiffing.NewFunctions()
	g := newGuard(b)
	g.register(fns)
	s, err := newSpiff(nil, fns, values)
	if err != nil {
		return nil, err
	}
	res, err := s.Cascade(node, nil)
	if err != nil {
		return nil, g.explain(err, name)
	}
	data, err := marshal(b, res)
	if err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decode result: %w", err)
	}
	return out, nil
}
