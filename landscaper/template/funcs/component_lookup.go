package funcs

import (
	"encoding/json"
	"fmt"
	"sort"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
)

// landscaperWorded is an error of a template function that Landscaper's
// GoTemplate function words otherwise, e.g. with the bare error it panics
// with. Only the GoTemplate message uses Landscaper's words (see
// template.GoMessage): the same functions serve Spiff, whose Landscaper
// functions word their errors otherwise again.
type landscaperWorded struct {
	err        error
	landscaper string
}

func (e *landscaperWorded) Error() string { return e.err.Error() }

// Unwrap returns lscli's error.
func (e *landscaperWorded) Unwrap() error { return e.err }

// LandscaperMessage is Landscaper's message for the error.
func (e *landscaperWorded) LandscaperMessage() string { return e.landscaper }

// Worded returns err, which Landscaper's GoTemplate function words as
// landscaper; a nil err stays nil.
func Worded(err error, landscaper string) error {
	if err == nil {
		return nil
	}
	return &landscaperWorded{err: err, landscaper: landscaper}
}

// Resources implements getResources: the resources of the component
// descriptor (the optional first argument, else Root) whose identity matches
// the name/value pairs.
func (c *Components) Resources(args ...any) ([]map[string]any, error) {
	cd, sel, err := c.selectorArgs(args)
	if err != nil {
		return nil, err
	}
	res, err := cd.GetResourcesBySelector(sel)
	if err != nil {
		return nil, Worded(fmt.Errorf("no resource of component %s:%s matches %s", cd.GetName(), cd.GetVersion(), describeSelector(sel)),
			err.Error())
	}
	out := make([]map[string]any, 0, len(res))
	for _, r := range res {
		m, err := toMap(r)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// Resource implements getResource: the first of Resources.
func (c *Components) Resource(args ...any) (map[string]any, error) {
	res, err := c.Resources(args...)
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// Component implements getComponent: the component descriptor of the first
// component reference whose identity matches the name/value pairs, from List.
func (c *Components) Component(args ...any) (map[string]any, error) {
	cd, sel, err := c.selectorArgs(args)
	if err != nil {
		return nil, err
	}
	refs, err := cd.GetComponentReferences(sel)
	if err != nil {
		return nil, Worded(fmt.Errorf("no component reference of %s:%s matches %s", cd.GetName(), cd.GetVersion(), describeSelector(sel)),
			err.Error())
	}
	ref := refs[0]
	target, ok := c.find(ref.ComponentName, ref.Version)
	if !ok {
		// ResolveComponents words it with the reference's name.
		return nil, Worded(fmt.Errorf("component reference %q (%s:%s) is not available: lscli reads no registry, "+
			"so put its component descriptor inline into the reference's label landscaper.gardener.cloud/component-descriptor",
			ref.Name, ref.ComponentName, ref.Version),
			fmt.Sprintf("unable to resolve component %s:%s", ref.Name, ref.Version))
	}
	return encode(&target)
}

// find returns the component name:version from List.
func (c *Components) find(name, version string) (cdv2.ComponentDescriptor, bool) {
	for _, cd := range c.List {
		if cd.GetName() == name && cd.GetVersion() == version {
			return cd, true
		}
	}
	return cdv2.ComponentDescriptor{}, false
}

// RepositoryContext implements getRepositoryContext: the effective (last)
// repository context of the component descriptor given as a map. A map that
// is not a component descriptor gives nil, as Landscaper's
// getEffectiveRepositoryContextGoFunc returns nil when the conversion fails;
// an argument that is not a map is an error.
func RepositoryContext(arg any) (map[string]any, error) {
	m, ok := arg.(map[string]any)
	if !ok {
		// getEffectiveRepositoryContextGoFunc
		landscaper := "invalid component descriptor"
		if arg == nil {
			landscaper = "Unable to get effective component descriptor as no ComponentDescriptor is defined."
		}
		return nil, Worded(fmt.Errorf("getRepositoryContext: want a component descriptor, got %T", arg), landscaper)
	}
	cd, err := decodeMap(m)
	if err != nil {
		return nil, nil
	}
	rc := cd.GetEffectiveRepositoryContext()
	if rc == nil {
		return nil, nil
	}
	return toMap(rc)
}

// toMap converts v to generic JSON.
func toMap(v any) (map[string]any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	err = json.Unmarshal(data, &out)
	return out, err
}

func sortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}

// Follow follows a chain of component reference names from Root (as in
// cd://componentReferences/a/componentReferences/b/...) and returns the name
// and version of the component it leads to, and its component descriptor
// when that is available inline (else nil).
func (c *Components) Follow(refs []string) (name, version string, cd *cdv2.ComponentDescriptor, err error) {
	if c == nil || c.Root == nil {
		return "", "", nil, c.noRoot()
	}
	cd = c.Root
	for i, refName := range refs {
		if cd == nil {
			return "", "", nil, fmt.Errorf("component reference %q is not available inline", refs[i-1])
		}
		ref, ok := findReference(cd, refName)
		if !ok {
			return "", "", nil, fmt.Errorf("component %s:%s has no component reference %q", cd.GetName(), cd.GetVersion(), refName)
		}
		name, version = ref.ComponentName, ref.Version
		next, found := c.find(name, version)
		cd = nil
		if found {
			cd = &next
		}
	}
	if len(refs) == 0 {
		name, version = cd.GetName(), cd.GetVersion()
	}
	return name, version, cd, nil
}

// findReference returns the component reference of cd named name.
func findReference(cd *cdv2.ComponentDescriptor, name string) (cdv2.ComponentReference, bool) {
	for _, r := range cd.ComponentReferences {
		if r.Name == name {
			return r, true
		}
	}
	return cdv2.ComponentReference{}, false
}
