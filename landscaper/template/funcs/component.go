package funcs

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"github.com/gardener/landscaper/legacy-component-spec/bindings-go/utils/selector"

	"github.com/lscli/lscli/landscaper/components/descriptor"
)

// Components are the component descriptors an installation's templates see:
// its component version (Root) and every version Root references,
// transitively (List). The zero value has no component descriptor at all.
type Components struct {
	// Root is the installation's component descriptor, or nil.
	Root *cdv2.ComponentDescriptor
	// List holds Root and every component it references, each once.
	List []cdv2.ComponentDescriptor
	// Schema is the schema templates see .cd and .components in:
	// descriptor.SchemaV2 (also when empty) or descriptor.SchemaV3.
	Schema string
	// Contents reads resource contents for getResourceContent; nil means
	// no content is available.
	Contents ContentReader
	// NotFound names the installation's component version
	// (name:version) when it has one that was not found: Root is then nil,
	// and the component functions say so instead of "no component
	// descriptor".
	NotFound string
	// Missing is the version (name:version) that was not found when it is
	// not NotFound itself but one it references.
	Missing string
	// Unreadable are the component sources lscli could not read while it
	// looked for NotFound (a file the config file maps that is no
	// component source), each with why.
	Unreadable []string
	// LookupErr is the lookup's error for NotFound when it is not that
	// the version is in no source (a mapped file lscli reads and finds
	// no component version in).
	LookupErr string
}

// NewComponents returns the components of an installation's
// spec.componentDescriptor. A nil def, or a reference to a registry, gives
// no components: templates that use them fail with a clear error.
func NewComponents(def *lsv1alpha1.ComponentDescriptorDefinition) (*Components, error) {
	c := &Components{}
	if def == nil || def.Inline == nil {
		return c, nil
	}
	c.Root = def.Inline.DeepCopy()
	if err := cdv2.DefaultComponent(c.Root); err != nil {
		return nil, fmt.Errorf("inline component descriptor: %w", err)
	}
	if err := c.collect(*c.Root, map[string]bool{}); err != nil {
		return nil, err
	}
	return c, nil
}

// collect adds cd and the components it references inline to c.List.
func (c *Components) collect(cd cdv2.ComponentDescriptor, seen map[string]bool) error {
	id := cd.GetName() + ":" + cd.GetVersion()
	if seen[id] {
		return nil
	}
	seen[id] = true
	c.List = append(c.List, cd)
	for _, ref := range cd.ComponentReferences {
		raw, ok := ref.Labels.Get(lsv1alpha1.InlineComponentDescriptorLabel)
		if !ok {
			continue
		}
		nested, err := decodeCD(raw)
		if err != nil {
			return fmt.Errorf("component reference %q of %s: inline component descriptor: %w", ref.Name, id, err)
		}
		if err := c.collect(*nested, seen); err != nil {
			return err
		}
	}
	return nil
}

// Bindings returns the values of the template bindings cd (the root
// component descriptor) and components (the list of all of them), or nil
// when there are none. In schema v2, components is a component descriptor
// list {meta, components}; in v3alpha1 a plain list of descriptors, as in
// Landscaper.
func (c *Components) Bindings() (cd, components any, err error) {
	if c == nil || c.Root == nil {
		return nil, nil, nil
	}
	if c.Schema == descriptor.SchemaV3 {
		return c.bindingsV3()
	}
	if cd, err = encode(c.Root); err != nil {
		return nil, nil, err
	}
	list := &cdv2.ComponentDescriptorList{Metadata: cdv2.Metadata{Version: cdv2.SchemaVersion}}
	for i := range c.List {
		cd := c.List[i].DeepCopy()
		cd.Metadata.Version = cdv2.SchemaVersion
		list.Components = append(list.Components, *cd)
	}
	components, err = toGeneric(list)
	return cd, components, err
}

// encode returns cd as generic JSON in schema v2.
func encode(cd *cdv2.ComponentDescriptor) (map[string]any, error) {
	cd = cd.DeepCopy()
	cd.Metadata.Version = cdv2.SchemaVersion
	if err := cdv2.DefaultComponent(cd); err != nil {
		return nil, fmt.Errorf("encode component descriptor %s:%s: %w", cd.GetName(), cd.GetVersion(), err)
	}
	return toMap(cd)
}

// decodeCD reads a component descriptor in schema v2 or v3alpha1 from JSON
// or YAML.
func decodeCD(data []byte) (*cdv2.ComponentDescriptor, error) {
	cd, _, err := descriptor.Decode(data)
	return cd, err
}

// toGeneric converts v to generic JSON.
func toGeneric(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(data, &out)
	return out, err
}

// errNoComponent is the error of a component function without a component
// descriptor.
var errNoComponent = errors.New("the installation has no component descriptor (spec.componentDescriptor)")

// RequireRoot fails when there is no installation component descriptor
// (Root), as Landscaper's GoTemplate getResource, getResources and
// getComponent do before they look at their arguments: a component
// descriptor given as the first argument does not stand in for it there.
func (c *Components) RequireRoot() error {
	if c == nil || c.Root == nil {
		return c.noRoot()
	}
	return nil
}

// noRoot is the error of a component function without Root.
func (c *Components) noRoot() error {
	var unreadable string
	if c != nil && len(c.Unreadable) > 0 {
		unreadable = "; lscli could not read: " + strings.Join(c.Unreadable, "; ")
	}
	if c != nil && c.LookupErr != "" {
		unreadable += "; the lookup failed: " + c.LookupErr
	}
	if c != nil && c.NotFound != "" && c.Missing != "" && c.Missing != c.NotFound {
		return fmt.Errorf("the installation's component version %s could not be resolved: %s, which it references, was not found; "+
			"the config file's blueprints map gives its blueprint, not its component descriptors; %s%s", c.NotFound, c.Missing,
			mapHint(c.Missing), unreadable)
	}
	if c != nil && c.NotFound != "" {
		return fmt.Errorf("the installation's component version %s was not found: the config file's blueprints map "+
			"gives its blueprint, not its component descriptor; %s%s", c.NotFound, mapHint(c.NotFound), unreadable)
	}
	return errNoComponent
}

// mapHint says which config file line gives lscli the component of version
// (name:version).
func mapHint(version string) string {
	name := version
	if i := strings.LastIndex(version, ":"); i > 0 {
		name = version[:i]
	}
	return fmt.Sprintf("map a folder or file that has %s under components:, e.g. components: {%q: ./path/to/folder} "+
		"(see docs/components.md)", name, name)
}

// selectorArgs splits the arguments of getResource and friends: an optional
// component descriptor (a map) first, then name/value pairs of an identity.
// The errors of the count and the types of the pairs carry the words of
// Landscaper's GoTemplate functions (ResolveResources and
// ResolveComponents in pkg/landscaper/installations/executions/template
// /helper.go, which count before they read a component descriptor given as
// the first argument).
func (c *Components) selectorArgs(args []any) (*cdv2.ComponentDescriptor, selector.DefaultSelector, error) {
	n := len(args)
	cd := c.Root
	if n > 0 {
		if m, ok := args[0].(map[string]any); ok {
			decoded, err := decodeMap(m)
			if err != nil {
				return nil, nil, err
			}
			cd, args = decoded, args[1:]
		}
	}
	if cd == nil {
		return nil, nil, c.noRoot()
	}
	if len(args) == 0 || len(args)%2 != 0 {
		landscaper := "odd number of key value pairs"
		if n < 2 {
			landscaper = "at least 2 arguments are expected"
		}
		return nil, nil, Worded(fmt.Errorf("want name/value pairs of an identity, e.g. \"name\" \"my-resource\", got %d arguments", len(args)), landscaper)
	}
	sel := selector.DefaultSelector{}
	for i := 0; i < len(args); i += 2 {
		k, ok1 := args[i].(string)
		v, ok2 := args[i+1].(string)
		if !ok1 || !ok2 {
			bad := i
			if ok1 {
				bad = i + 1
			}
			return nil, nil, Worded(fmt.Errorf("identity arguments must be strings, got %T and %T", args[i], args[i+1]),
				fmt.Sprintf("expect argument %d to be a string", bad))
		}
		sel[k] = v
	}
	return cd, sel, nil
}

// decodeMap reads a component descriptor given to a template function, in
// schema v2 or v3alpha1.
func decodeMap(m map[string]any) (*cdv2.ComponentDescriptor, error) {
	cd, err := descriptor.FromMap(m)
	if err != nil {
		return nil, fmt.Errorf("argument is not a component descriptor: %w", err)
	}
	return cd, nil
}

// describeSelector prints a selector as k=v pairs in argument order.
func describeSelector(sel selector.DefaultSelector) string {
	var parts []string
	for k, v := range sel {
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	return strings.Join(sortedStrings(parts), ",")
}
