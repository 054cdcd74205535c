package dataflow

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/landscaper/components"
)

// resolveCD resolves a cd:// reference to a JSON schema resource, as
// Landscaper does: from the version the schema belongs to, following
// component references, the resource must be of type jsonschema (gzip is
// undone); references inside it are resolved relative to the version that
// owns it, without local types or blueprint files; then the fragment
// applies.
func (s *schemas) resolveCD(ref string, seen map[string]bool, at *field.Path) (any, error) {
	if s.tree == nil || s.owner == nil {
		return nil, withLS(fmt.Errorf("$ref %q: no component descriptor defined to resolve the ref", ref), "no component descriptor defined to resolve the ref")
	}
	uri, err := components.ParseURI(ref)
	if err != nil {
		return nil, fmt.Errorf("$ref %q: %w", ref, err)
	}
	owner, res, err := s.tree.Follow(s.owner, uri)
	if err == nil && res.Name == "" {
		err = errors.New("the selector seems to target a component desscriptor but a resource is requested")
	}
	if err != nil {
		return nil, fmt.Errorf("$ref %q: %w", ref, err)
	}
	c, err := s.tree.Registry().Content(owner, res, components.ForSchema)
	if err != nil {
		return nil, fmt.Errorf("unable to fetch jsonschema for '%s': %w", ref, err)
	}
	raw, err := components.ReadJSONSchema(res, c)
	if err != nil {
		return nil, fmt.Errorf("unable to fetch jsonschema for '%s': %w", ref, err)
	}
	nested := &schemas{tree: s.tree, owner: owner}
	return nested.resolveDoc(ref, uri.Fragment, raw, seen, at)
}
