package spiff

import (
	"encoding/json"
	"fmt"

	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
	"github.com/mandelsoft/vfs/pkg/memoryfs"
	"github.com/mandelsoft/vfs/pkg/vfs"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/crash"
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
}

// Result is what an execution rendered.
type Result struct {
	// Output is the rendered document as YAML.
	Output []byte
	// State is the new state to store, nil when the template keeps none.
	State []byte
}

// Component names Spiff in crash errors.
const Component = "spiff"

// Execute renders req. A panic in Spiff is returned as a *crash.Error.
func Execute(req Request) (result *Result, err error) {
	defer crash.Recover(Component, &err)
	tmpl, err := parseTemplate(req.Name, req.Template)
	if err != nil {
		return nil, err
	}
	s, err := newSpiff(req.FS, req.Functions, req.Values)
	if err != nil {
		return nil, err
	}
	var states []spiffyaml.Node
	if req.Stateful {
		st, err := stateNode(req.State)
		if err != nil {
			return nil, err
		}
		states = append(states, st)
	}
	res, err := s.Cascade(tmpl, nil, states...)
	if err != nil {
		return nil, err
	}
	out, err := spiffyaml.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("marshal result: %w", err)
	}
	result = &Result{Output: out}
	if req.Stateful {
		result.State, err = determineState(s, res)
	}
	return result, err
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

// parseTemplate reads a template given as YAML or as a string of YAML.
func parseTemplate(name string, raw []byte) (spiffyaml.Node, error) {
	if name == "" {
		name = "template"
	}
	node, err := spiffyaml.Unmarshal(name, raw)
	if err != nil {
		return nil, fmt.Errorf("parse template: %w", err)
	}
	if text, ok := node.Value().(string); ok {
		if node, err = spiffyaml.Unmarshal(name, []byte(text)); err != nil {
			return nil, fmt.Errorf("parse template: %w", err)
		}
	}
	return node, nil
}

// stateNode is the state node for a Cascade: the stored state or an empty map.
func stateNode(state []byte) (spiffyaml.Node, error) {
	if len(state) == 0 {
		return spiffyaml.NewNode(map[string]any{}, "state"), nil
	}
	node, err := spiffyaml.Unmarshal("state", state)
	if err != nil {
		return nil, fmt.Errorf("read stored state: %w", err)
	}
	return node, nil
}

// determineState returns the state nodes of res as JSON, or nil for none.
func determineState(s spiffing.Spiff, res spiffyaml.Node) ([]byte, error) {
	st := s.DetermineState(res)
	if st == nil || st.Value() == nil {
		return nil, nil
	}
	data, err := spiffyaml.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("marshal state: %w", err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil || string(js) == "null" || string(js) == "{}" {
		return nil, err
	}
	return js, nil
}

// Map renders one data mapping (an entry of importDataMappings or
// exportDataMappings): the template is JSON (any YAML value, usually a
// Spiff expression string), the values are bound at the top level. A panic
// in Spiff is returned as a *crash.Error.
func Map(name string, tmpl json.RawMessage, values map[string]any) (out any, err error) {
	defer crash.Recover(Component, &err)
	node, err := spiffyaml.Unmarshal(name, tmpl)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	s, err := newSpiff(nil, nil, values)
	if err != nil {
		return nil, err
	}
	res, err := s.Cascade(node, nil)
	if err != nil {
		return nil, err
	}
	data, err := spiffyaml.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("marshal result: %w", err)
	}
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decode result: %w", err)
	}
	return out, nil
}
