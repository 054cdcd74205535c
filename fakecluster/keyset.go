package fakecluster

import (
	"iter"
	"slices"
)

// smallSet is the most entries a keySet keeps in a slice.
const smallSet = 8

// keySet is a set of the store's entries, one value of the API server's
// indexes. Most hold one object (the objects of one owner, of one label
// value), so a set keeps its entries in a slice, searched while it is small
// (a map of one entry costs ten times its entry, and 100,000 of them were a
// fifth of the live heap of a big landscape), with a map from entry to
// place beside it once it grows. Iterating is always over the slice: a List
// by owner goes over the set of a parent's children at every wake-up. The
// nil set is empty.
type keySet struct {
	list []*entry
	// places is the place of each entry in list, for sets of more than
	// smallSet entries; nil for smaller ones.
	places map[*entry]int
}

// len is the number of entries in s.
func (s *keySet) len() int {
	if s == nil {
		return 0
	}
	return len(s.list)
}

// has reports whether e is in s.
func (s *keySet) has(e *entry) bool {
	switch {
	case s == nil:
		return false
	case s.places != nil:
		_, ok := s.places[e]
		return ok
	}
	return slices.Contains(s.list, e)
}

// add puts e into s.
func (s *keySet) add(e *entry) {
	if s.has(e) {
		return
	}
	if s.places == nil && len(s.list) == smallSet {
		s.places = make(map[*entry]int, 2*smallSet)
		for i, o := range s.list {
			s.places[o] = i
		}
	}
	if s.places != nil {
		s.places[e] = len(s.list)
	}
	s.list = append(s.list, e)
}

// remove takes e out of s; the last entry takes its place.
func (s *keySet) remove(e *entry) {
	i := -1
	if s.places != nil {
		if p, ok := s.places[e]; ok {
			i = p
			delete(s.places, e)
		}
	} else {
		i = slices.Index(s.list, e)
	}
	if i < 0 {
		return
	}
	last := len(s.list) - 1
	if i != last {
		s.list[i] = s.list[last]
		if s.places != nil {
			s.places[s.list[i]] = i
		}
	}
	s.list[last] = nil
	s.list = s.list[:last]
}

// all yields the entries of s, in no particular order.
func (s *keySet) all() iter.Seq[*entry] {
	if s == nil {
		return func(func(*entry) bool) {}
	}
	return slices.Values(s.list)
}
