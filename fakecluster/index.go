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
	return c.store.addIndexer(gvk.GroupKind(), name, fn)
}

func (s *store) addIndexer(gk schema.GroupKind, name string, fn IndexFunc) error {
	if _, ok := s.indexers[gk][name]; ok {
		return fmt.Errorf("index %q of %s is registered already", name, gk.Kind)
	}
	if s.indexers[gk] == nil {
		s.indexers[gk] = map[string]IndexFunc{}
	}
	s.indexPending() // before the new index is registered, which is filled below
	s.indexers[gk][name] = fn
	for ns, byName := range s.objects[gk] {
		for n, obj := range byName {
			for _, v := range fieldValues(fn, obj) {
				addKey(s.fields, fieldKey{gk: gk, index: name, value: v}, objKey{gk: gk, namespace: ns, name: n})
			}
		}
	}
	return nil
}

// indexFields adds (or removes, with op) k under every value of every index
// of its kind.
func (s *store) indexFields(k objKey, obj Object, op func(map[fieldKey]*keySet, fieldKey, objKey)) {
	for name, fn := range s.indexers[k.gk] {
		for _, v := range fieldValues(fn, obj) {
			op(s.fields, fieldKey{gk: k.gk, index: name, value: v}, k)
		}
	}
}

// fieldValues returns the values fn indexes obj under, sorted, each once.
func fieldValues(fn IndexFunc, obj Object) []string {
	return slices.Compact(slices.Sorted(slices.Values(fn(obj))))
}
