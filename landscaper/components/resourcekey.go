package components

import (
	"encoding/base64"
	"fmt"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"sigs.k8s.io/yaml"

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

// ResourceByIdentity returns the resource of v whose identity is id.
func ResourceByIdentity(v *source.Version, id cdv2.Identity) (cdv2.Resource, error) {
	for _, r := range v.Descriptor.Resources {
		if identityEqual(r.GetIdentity(), id) {
			return r, nil
		}
	}
	return cdv2.Resource{}, fmt.Errorf("component %s has no resource with identity %v", v.Key(), id)
}

func identityEqual(a, b cdv2.Identity) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
