package components

import (
	"encoding/base64"
	"fmt"
	"maps"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/components/descriptor"
	"github.com/lscli/lscli/landscaper/components/source"
)

// GlobalIdentity is what getResourceKey encodes and chart.resourceRef
// holds: a component version and a resource's identity in it.
type GlobalIdentity struct {
	Component struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"component"`
	Resource cdv2.Identity `json:"resource"`
}

// DecodeResourceKey decodes a resource key (base64 of the YAML of a
// GlobalIdentity).
func DecodeResourceKey(key string) (*GlobalIdentity, error) {
	data, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		return nil, err
	}
	id := &GlobalIdentity{}
	if err := yaml.Unmarshal(data, id); err != nil {
		return nil, fmt.Errorf("resource key: %w", err)
	}
	if id.Component.Name == "" || id.Component.Version == "" || len(id.Resource) == 0 {
		return nil, fmt.Errorf("resource key %s names no component version and resource", data)
	}
	return id, nil
}

// ResourceByIdentity returns the resource of v whose identity is id: its
// whole OCM identity, as getResourceKey puts it into a key (with the
// version when another resource has the same name and extra identity).
func ResourceByIdentity(v *source.Version, id cdv2.Identity) (cdv2.Resource, error) {
	elems := descriptor.ResourceElements(v.Descriptor)
	for i, r := range v.Descriptor.Resources {
		if maps.Equal(descriptor.OCMIdentity(elems, i), id) {
			return r, nil
		}
	}
	return cdv2.Resource{}, fmt.Errorf("component %s has no resource with identity %v", v.Key(), id)
}
