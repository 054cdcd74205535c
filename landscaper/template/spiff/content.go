package spiff

import (
	"encoding/json"
	"errors"

	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/template/funcs"
)

// resourceContent is Spiff's getResourceContent: the content of a
// resource (base64 encoded for application/octet-stream, as for GoTemplate),
// parsed as YAML, as Landscaper's spiffGetResourceContent gives it. The
// reference may be an object (see referenceArgs).
func resourceContent(components *funcs.Components, args []any) (any, error) {
	args, err := referenceArgs(args)
	if err != nil {
		return nil, err
	}
	data, err := components.ResourceContent(args...)
	if err != nil {
		return nil, err
	}
	var out any
	if err := yaml.Unmarshal([]byte(data), &out); err != nil {
		return nil, err
	}
	return out, nil
}

// referenceArgs returns args with a relative resource reference given as
// an object (e.g. {resource: {name: x}, referencePath: [{name: y}]}) turned
// into its JSON text, as Landscaper's Spiff getResourceKey and
// getResourceContent read a non-string argument.
func referenceArgs(args []any) ([]any, error) {
	if len(args) != 1 {
		return args, nil
	}
	if _, ok := args[0].(string); ok {
		return args, nil
	}
	data, err := json.Marshal(args[0])
	if err != nil {
		return nil, errors.New("unable to parse input")
	}
	return []any{string(data)}, nil
}
