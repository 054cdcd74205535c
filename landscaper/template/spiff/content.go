package spiff

import (
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/template/funcs"
)

// resourceContent is Spiff's getResourceContent: the content of a
// resource, parsed as YAML, as Landscaper gives it.
func resourceContent(components *funcs.Components, args []any) (any, error) {
	data, err := components.ResourceContentData(args...)
	if err != nil {
		return nil, err
	}
	var out any
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}
