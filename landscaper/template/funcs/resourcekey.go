package funcs

import (
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"github.com/lscli/lscli/internal/yamlout"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/components/descriptor"
	"sigs.k8s.io/yaml"
)

// resourceReference is an OCM relative resource reference: a resource
// identity and the component references leading to its component.
type resourceReference struct {
	Resource      map[string]string   `json:"resource"`
	ReferencePath []map[string]string `json:"referencePath,omitempty"`
}

// globalResourceIdentity is what getResourceKey encodes.
type globalResourceIdentity struct {
	Component struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"component"`
	Resource cdv2.Identity `json:"resource"`
}

// ResourceKey implements getResourceKey: it resolves a resource reference,
// either "cd://componentReferences/<ref>/.../resources/<name>" or an OCM
// relative reference in YAML ({resource: {name: x}, referencePath: [...]}),
// against Root and the inline components, and returns the base64 encoded
// YAML of the resource's global identity, as Landscaper does.
func (c *Components) ResourceKey(args ...any) (string, error) {
	// Landscaper's getResourceKeyGoFunc checks the arguments in this order,
	// in words of its own.
	switch {
	case len(args) == 0:
		return "", Worded(fmt.Errorf("getResourceKey takes one argument, a resource reference; got %d", len(args)),
			"unable to provide key for empty relative artifact reference")
	case len(args) > 1:
		return "", Worded(fmt.Errorf("getResourceKey takes one argument, a resource reference; got %d", len(args)),
			fmt.Sprintf("this function requires 1 argument, but %v were provided", len(args)))
	case c == nil || c.Root == nil:
		return "", Worded(c.noRoot(), "unable to use this function without ocm component version")
	}
	s, ok := args[0].(string)
	if !ok {
		return "", Worded(fmt.Errorf("getResourceKey: the resource reference must be a string, got %T", args[0]),
			"unable to assert the first argument as string")
	}
	ref, err := parseResourceReference(s)
	if err != nil {
		return "", err
	}
	cd, _, err := c.resolveReference(ref)
	if err != nil {
		return "", fmt.Errorf("getResourceKey %q: %w", s, err)
	}
	// the identity OCM gives the resource (resource.Meta().GetIdentity)
	id := globalResourceIdentity{Resource: descriptor.OCMIdentity(descriptor.ResourceElements(cd), resourceIndex(cd, ref.Resource))}
	id.Component.Name, id.Component.Version = cd.GetName(), cd.GetVersion()
	data, err := yamlout.Marshal(id)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(data), nil
}

// parseResourceReference reads a resource reference as Landscaper's
// ParseResourceReference (template/common/utils.go) does: a "cd://" path
// with cdutils.ParseURI (components.ParseURI: a fragment or query is not
// part of the path) and AsRelativeResourceReference, in their words; anything else as an
// OCM relative reference in YAML.
func parseResourceReference(s string) (*resourceReference, error) {
	if !strings.HasPrefix(s, "cd://") {
		ref := &resourceReference{}
		if err := yaml.Unmarshal([]byte(s), ref); err != nil {
			return nil, fmt.Errorf("failed to unmarshal argument into a relative resource reference: %w", err)
		}
		if ref.Resource["name"] == "" {
			return nil, fmt.Errorf("invalid resource reference %q: want cd://.../resources/<name> or {resource: {name: ...}}", s)
		}
		return ref, nil
	}
	uri, err := components.ParseURI(s)
	if err != nil {
		return nil, fmt.Errorf("failed to parse argument into URI: %w", err)
	}
	ref := &resourceReference{}
	for i, e := range uri.Path {
		isLast := i == len(uri.Path)-1
		id := map[string]string{cdv2.SystemIdentityName: e.Value}
		switch e.Keyword {
		case "componentReferences":
			ref.ReferencePath = append(ref.ReferencePath, id)
			if isLast {
				return nil, errors.New("the selector seems to target a component but a resource is requested")
			}
		case "resources":
			if !isLast {
				return nil, errors.New("the selector seems to contain more path segments after a resource")
			}
			ref.Resource = id
			return ref, nil
		default:
			return nil, fmt.Errorf("unknown keyword %s", e.Keyword)
		}
	}
	return nil, fmt.Errorf("unable to find resource %q", s)
}

// resolveReference follows the reference path from Root and finds the
// resource, as OCM's ResolveResourceReference does: each step and the
// resource are found by their whole identity (see descriptor.OCMIdentity), not by a
// subset of it.
func (c *Components) resolveReference(ref *resourceReference) (*cdv2.ComponentDescriptor, *cdv2.Resource, error) {
	cd := c.Root
	for _, step := range ref.ReferencePath {
		next, err := c.referenced(cd, step)
		if err != nil {
			return nil, nil, err
		}
		cd = next
	}
	if i := resourceIndex(cd, ref.Resource); i >= 0 {
		return cd, &cd.Resources[i], nil
	}
	return nil, nil, fmt.Errorf("component %s:%s has no resource %v", cd.GetName(), cd.GetVersion(), ref.Resource)
}

// referenced returns the component that cd references with identity id.
func (c *Components) referenced(cd *cdv2.ComponentDescriptor, id map[string]string) (*cdv2.ComponentDescriptor, error) {
	elems := make([]descriptor.Element, len(cd.ComponentReferences))
	for i, r := range cd.ComponentReferences {
		elems[i] = descriptor.Element{Name: r.Name, Version: r.Version, Extra: r.ExtraIdentity}
	}
	for i, r := range cd.ComponentReferences {
		if !maps.Equal(descriptor.OCMIdentity(elems, i), id) {
			continue
		}
		next, ok := c.find(r.ComponentName, r.Version)
		if !ok {
			return nil, fmt.Errorf("component reference %q (%s:%s) is not available inline", r.Name, r.ComponentName, r.Version)
		}
		return &next, nil
	}
	return nil, fmt.Errorf("component %s:%s has no component reference %v", cd.GetName(), cd.GetVersion(), id)
}

// resourceIndex returns the index of the resource of cd whose OCM identity
// is id, -1 if none.
func resourceIndex(cd *cdv2.ComponentDescriptor, id map[string]string) int {
	elems := descriptor.ResourceElements(cd)
	for i := range elems {
		if maps.Equal(descriptor.OCMIdentity(elems, i), id) {
			return i
		}
	}
	return -1
}
