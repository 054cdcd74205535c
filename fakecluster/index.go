package fakecluster

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// IndexFunc returns the values under which obj is found in an index, like
// controller-runtime's client.IndexerFunc. It must depend only on obj.
type IndexFunc func(obj Object) []string

// FieldMatch selects the objects whose index Index holds Value.
type FieldMatch struct {
	Index string
	Value string
}

// fieldKey is one entry of a field index: kind, index name and one value.
type fieldKey struct {
	gk    schema.GroupKind
	index string
	value string
}

// AddIndex registers the index name for the kind of obj and indexes the
// objects already stored. A List with ListOptions.Field then looks objects up
// by it instead of visiting every object of the kind. Registering a name twice
// for a kind is an error.
func (c *Cluster) AddIndex(obj Object, name string, fn IndexFunc) error {
	gvk, err := c.kindOf(obj)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.store.addIndexer(gvk.GroupKind(), name, fn, nil)
}

// GroupFunc names the group a value of an index belongs to, for
// SharedValues: a scope that the values are written in, say.
type GroupFunc func(value string) string

// AddGroupedIndex is AddIndex, and the cluster also counts, for each group
// of values (see GroupFunc), how many of them two or more objects hold (see
// SharedValues), as it stores, changes and removes objects: whether any
// value in a group is shared is then known without visiting the group.
func (c *Cluster) AddGroupedIndex(obj Object, name string, fn IndexFunc, group GroupFunc) error {
	gvk, err := c.kindOf(obj)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	gk := gvk.GroupKind()
	return c.store.addIndexer(gk, name, fn, group)
}

// SharedValues returns how many values of the grouped index name of obj's
// kind in group are held by two or more stored objects.
func (c *Cluster) SharedValues(obj Object, name, group string) (int, error) {
	gvk, err := c.kindOf(obj)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store.indexPending()
	return c.store.shared[fieldKey{gk: gvk.GroupKind(), index: name, value: group}], nil
}

// addIndexer registers the index name of kind gk, grouped by group when it
// is not nil, and indexes the objects stored.
func (s *store) addIndexer(gk schema.GroupKind, name string, fn IndexFunc, group GroupFunc) error {
	if _, ok := s.indexers[gk][name]; ok {
		return fmt.Errorf("index %q of %s is registered already", name, gk.Kind)
	}
	if group != nil {
		if s.groups[gk] == nil {
			s.groups[gk] = map[string]GroupFunc{}
		}
		s.groups[gk][name] = group
	}
	if s.indexers[gk] == nil {
		s.indexers[gk] = map[string]IndexFunc{}
	}
	s.indexPending() // before the new index is registered, which is filled below
	s.indexers[gk][name] = fn
	for _, byName := range s.objects[gk] {
		for _, e := range byName {
			s.indexField(e, name, fn, true)
		}
	}
	return nil
}

// indexFields adds (or removes, when add is false) e under every value of
// every index of its kind, for its object as it is now.
func (s *store) indexFields(e *entry, add bool) {
	for name, fn := range s.indexers[e.key.gk] {
		s.indexField(e, name, fn, add)
	}
}

// indexField adds (or removes) e under the values of one index, and keeps
// the count of shared values of a grouped index.
func (s *store) indexField(e *entry, name string, fn IndexFunc, add bool) {
	k := e.key
	group := s.groups[k.gk][name]
	for _, v := range fieldValues(fn, e.obj) {
		fk := fieldKey{gk: k.gk, index: name, value: v}
		before := s.fields[fk].len()
		if add {
			addEntry(s.fields, fk, e)
		} else {
			removeEntry(s.fields, fk, e)
		}
		if group == nil {
			continue
		}
		after := s.fields[fk].len()
		gkey := fieldKey{gk: k.gk, index: name, value: group(v)}
		switch {
		case before < 2 && after >= 2:
			s.shared[gkey]++
		case before >= 2 && after < 2:
			if s.shared[gkey]--; s.shared[gkey] == 0 {
				delete(s.shared, gkey)
			}
		}
	}
}

// fieldValues returns the values fn indexes obj under, sorted, each once.
func fieldValues(fn IndexFunc, obj Object) []string {
	return slices.Compact(slices.Sorted(slices.Values(fn(obj))))
}
