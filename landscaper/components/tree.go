package components

import (
	"fmt"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/components/descriptor"
	"github.com/lscli/lscli/landscaper/components/source"
)

// Tree is an installation's component version and every version it
// references, transitively, as Landscaper resolves them for each job.
type Tree struct {
	// Root is the installation's component version.
	Root *source.Version
	// List holds Root first, then the referenced versions depth first in
	// reference order, each once. (Landscaper's order is random.)
	List []*source.Version
	// Repo is the repository context the versions were resolved in: the
	// installation's effective one.
	Repo *cdv2.UnstructuredTypedObject

	reg              *Registry
	inline, fallback source.Source
	overwrites       Overwrites
}

// Resolve finds the component version req names and, in the same
// repository context, every version it references, transitively, each
// reference with req's overwrites applied. A reference that cannot be
// resolved is an error, as in Landscaper.
func (r *Registry) Resolve(req Request) (*Tree, error) {
	root, err := r.Lookup(req)
	if err != nil {
		return nil, err
	}
	t := &Tree{Root: root, Repo: req.Repo, reg: r, inline: req.Inline, fallback: req.Fallback, overwrites: req.Overwrites}
	seen := map[source.Key]bool{}
	if err := t.collect(root, seen); err != nil {
		return nil, err
	}
	return t, nil
}

// collect adds v and what it references to List.
func (t *Tree) collect(v *source.Version, seen map[source.Key]bool) error {
	if seen[v.Key()] {
		return nil
	}
	seen[v.Key()] = true
	t.List = append(t.List, v)
	for _, ref := range v.Descriptor.ComponentReferences {
		next, err := t.lookup(t.replace(ref))
		if err != nil {
			return fmt.Errorf("unable to resolve component reference %s with component name %s and version %s: %w",
				ref.Name, ref.ComponentName, ref.Version, err)
		}
		if err := t.collect(next, seen); err != nil {
			// getTransitiveComponentReferencesRecursively wraps what a
			// referenced version cannot resolve once per level.
			return fmt.Errorf("unable to resolve component references for component descriptor %s with version %s: %w",
				ref.Name, ref.Version, err)
		}
	}
	return nil
}

// lookup finds the version ref names.
func (t *Tree) lookup(ref Ref) (*source.Version, error) {
	return t.reg.Lookup(Request{Repo: ref.Repo, Name: ref.Name, Version: ref.Version, Inline: t.inline, Fallback: t.fallback})
}

// replace returns the version a component reference leads to in the
// tree's repository context, with the tree's overwrites applied.
func (t *Tree) replace(ref cdv2.ComponentReference) Ref {
	r, _ := t.overwrites.Apply(Ref{Repo: t.Repo, Name: ref.ComponentName, Version: ref.Version})
	return r
}

// Find returns the version name:version of the tree, or nil.
func (t *Tree) Find(name, version string) *source.Version {
	for _, v := range t.List {
		if v.Key() == (source.Key{Name: name, Version: version}) {
			return v
		}
	}
	return nil
}

// Referenced returns the version that v's component reference named
// refName leads to (Landscaper matches the reference's name only), with
// the tree's overwrites applied.
func (t *Tree) Referenced(v *source.Version, refName string) (*source.Version, *cdv2.ComponentReference, error) {
	return t.referenced(v, refName, true)
}

// referenced is Referenced; without replace, the overwrites are not
// applied, and a version the tree does not hold because of them is looked
// up in the tree's repository context.
func (t *Tree) referenced(v *source.Version, refName string, replace bool) (*source.Version, *cdv2.ComponentReference, error) {
	for i, ref := range v.Descriptor.ComponentReferences {
		if ref.Name != refName {
			continue
		}
		var next *source.Version
		switch {
		case replace:
			r := t.replace(ref)
			next = t.Find(r.Name, r.Version)
		case len(t.overwrites) == 0:
			next = t.Find(ref.ComponentName, ref.Version)
		default:
			next, _ = t.lookup(Ref{Repo: t.Repo, Name: ref.ComponentName, Version: ref.Version})
		}
		if next == nil {
			return nil, nil, fmt.Errorf("component %s cannot be found", refName)
		}
		return next, &v.Descriptor.ComponentReferences[i], nil
	}
	return nil, nil, fmt.Errorf("component reference %s cannot be found", refName)
}

// HasOverwrites reports whether the tree was resolved with overwrites.
func (t *Tree) HasOverwrites() bool { return len(t.overwrites) > 0 }

// Schema returns the schema templates see the tree in: the blueprint's
// ocmSchemaVersion annotation (may be ""), else the root's schema.
func (t *Tree) Schema(annotation string) (string, error) {
	s := annotation
	if s == "" {
		s = t.Root.Schema
	}
	if s != descriptor.SchemaV2 && s != descriptor.SchemaV3 {
		return "", fmt.Errorf("unknown schema version %q", s)
	}
	return s, nil
}

// Registry returns the registry that resolved the tree.
func (t *Tree) Registry() *Registry { return t.reg }
