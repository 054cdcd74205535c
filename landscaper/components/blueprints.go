package components

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components/descriptor"
	"github.com/lscli/lscli/landscaper/components/source"
	"github.com/lscli/lscli/reconcile"
)

// Resource returns the resource of v whose identity is {name: name}, as
// Landscaper's GetResource(NewIdentity(name)) selects it by OCM's identity:
// a resource with an extraIdentity has another identity, and when two
// resources share name and extra identity each has its version in its
// identity, so neither is found by name.
func Resource(v *source.Version, name string) (cdv2.Resource, error) {
	elems := descriptor.ResourceElements(v.Descriptor)
	for i, r := range v.Descriptor.Resources {
		if maps.Equal(descriptor.OCMIdentity(elems, i), cdv2.Identity{cdv2.SystemIdentityName: name}) {
			return r, nil
		}
	}
	return cdv2.Resource{}, fmt.Errorf("failed to get resource with name %s", name)
}

// Blueprint reads the blueprint resource name of v. Blueprints are read
// once per registry: component versions do not change.
func (r *Registry) Blueprint(v *source.Version, name string) (*blueprint.Blueprint, error) {
	res, err := Resource(v, name)
	if err != nil {
		return nil, r.missingResource(v, err)
	}
	if err := r.blueprintHandler(v, res); err != nil {
		return nil, fmt.Errorf("component %s, resource %q: %w", v.Key(), name, err)
	}
	key := v.Origin + "|" + v.Key().String() + "|" + name
	r.mu.Lock()
	bp, ok := r.blueprints[key]
	r.mu.Unlock()
	if ok {
		return bp, nil
	}
	c, err := r.Content(v, res, ForBlueprint)
	var nr *NeedsRegistryError
	if err != nil && !errors.As(err, &nr) {
		return nil, fmt.Errorf("%w; or map the blueprint to a folder in %s:\n  blueprints:\n    %q: ./path/to/blueprint-folder",
			err, fileOr(r.configFile()), v.Key().Name+"/"+name)
	}
	if err != nil {
		return nil, err
	}
	if bp, err = ReadBlueprint(res, c); err != nil {
		return nil, fmt.Errorf("component %s, resource %q: %w", v.Key(), name, err)
	}
	bp.Source = fmt.Sprintf("%s resource %s (%s)", v.Key(), name, v.Origin)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.blueprints == nil {
		r.blueprints = map[string]*blueprint.Blueprint{}
	}
	r.blueprints[key] = bp
	return bp, nil
}

// blueprintHandler is what Landscaper's ResolveBlueprint does with a
// resource that is not of a blueprint type: GetTypedContent
// (pkg/components/ocmlib/resource.go) picks the handler of the resource's
// type before it reads anything, and only JSON schemas have one besides
// blueprints; their handler reads the schema, which is then not the
// *Blueprint that pkg/landscaper/blueprints/resolve.go expects (its message
// names the type of its own nil variable).
func (r *Registry) blueprintHandler(v *source.Version, res cdv2.Resource) error {
	switch res.Type {
	case BlueprintType, OldBlueprintType:
		return nil
	case JSONSchemaType:
		c, err := r.Content(v, res, ForSchema)
		if err == nil {
			_, err = ReadJSONSchema(res, c)
		}
		if err != nil {
			return err
		}
		return errors.New("received resource of type *blueprints.Blueprint but expected type *Blueprint")
	}
	return fmt.Errorf("no handler found for resource type %s", res.Type)
}

// missingResource adds to err, Landscaper's error for a resource v does not
// have, where lscli found v and what resources it has, and the sources lscli
// could not read: a component found in a descriptor without resources (such
// as a test descriptor next to the constructor) while its constructor did not
// load otherwise leaves the user without a clue. The status text (see
// reconcile.StatusText) stays Landscaper's err alone.
func (r *Registry) missingResource(v *source.Version, err error) error {
	names := make([]string, 0, len(v.Descriptor.Resources))
	for _, res := range v.Descriptor.Resources {
		names = append(names, res.Name)
	}
	has := "no resources"
	if len(names) > 0 {
		has = "resources " + strings.Join(names, ", ")
	}
	var failed []string
	if x := r.discoveredIndex(); x != nil {
		x.load()
		failed = x.failed
	}
	return reconcile.WithStatusText(fmt.Errorf("%w (lscli took component %s from %s, which has %s%s)", err, v.Key(), v.Origin, has,
		failedNote(failed)), err.Error())
}

// Blueprints resolves spec.blueprint.ref.resourceName of one installation:
// from the blueprints map of the config file by "<component>/<resource>"
// (an explicit override), else from the installation's component version,
// else, only when the installation has no component version, from the map
// by resource name.
type Blueprints struct {
	// Tree is the installation's component versions; nil when it has none.
	Tree *Tree
	// Folders is the blueprints map; nil when there is none.
	Folders blueprint.Resolver
}

var _ blueprint.Resolver = (*Blueprints)(nil)

// Resolve implements blueprint.Resolver.
func (b *Blueprints) Resolve(ref blueprint.Reference) (*blueprint.Blueprint, error) {
	if b.Tree == nil {
		if b.Folders == nil {
			return nil, fmt.Errorf("%w: no component descriptor reference defined (the installation has no "+
				"spec.componentDescriptor), and no blueprints map in the config file names it", blueprint.ErrNotFound)
		}
		return b.Folders.Resolve(ref)
	}
	if b.Folders != nil && ref.ComponentName != "" {
		bp, err := b.Folders.Resolve(blueprint.Reference{ResourceName: ref.ComponentName + "/" + ref.ResourceName})
		if err == nil || !errors.Is(err, blueprint.ErrNotFound) {
			return bp, err
		}
	}
	return b.Tree.reg.Blueprint(b.Tree.Root, ref.ResourceName)
}
