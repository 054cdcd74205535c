package fakecluster

import (
	"iter"
	"maps"
	"slices"
)

// smallSet is the most keys a keySet keeps in a slice.
const smallSet = 8

// keySet is a set of object keys, the entries of the API server's indexes.
// Most hold one object (the objects of one owner, of one label value), so a
// set keeps its keys in a slice while it is small, and in a map once it
// grows: a map of one key costs ten times its key, and 100,000 of them were
// a fifth of the live heap of a big landscape. The nil set is empty.
type keySet struct {
	small []objKey
	large map[objKey]struct{}
}

// len is the number of keys in s.
func (s *keySet) len() int {
	switch {
	case s == nil:
		return 0
	case s.large != nil:
		return len(s.large)
	}
	return len(s.small)
}

// has reports whether k is in s.
func (s *keySet) has(k objKey) bool {
	switch {
	case s == nil:
		return false
	case s.large != nil:
		_, ok := s.large[k]
		return ok
	}
	return slices.Contains(s.small, k)
}

// add puts k into s.
func (s *keySet) add(k objKey) {
	switch {
	case s.large != nil:
		s.large[k] = struct{}{}
	case slices.Contains(s.small, k):
	case len(s.small) < smallSet:
		s.small = append(s.small, k)
	default:
		s.large = make(map[objKey]struct{}, 2*smallSet)
		for _, o := range s.small {
			s.large[o] = struct{}{}
		}
		s.large[k] = struct{}{}
		s.small = nil
	}
}

// remove takes k out of s.
func (s *keySet) remove(k objKey) {
	if s.large != nil {
		delete(s.large, k)
		return
	}
	if i := slices.Index(s.small, k); i >= 0 {
		last := len(s.small) - 1
		s.small[i] = s.small[last]
		s.small[last] = objKey{}
		s.small = s.small[:last]
	}
}

// all yields the keys of s, in no particular order.
func (s *keySet) all() iter.Seq[objKey] {
	switch {
	case s == nil:
		return func(func(objKey) bool) {}
	case s.large != nil:
		return maps.Keys(s.large)
	}
	return slices.Values(s.small)
}
