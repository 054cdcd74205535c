package fakecluster

import (
	"reflect"
	"unsafe"
)

// statusSharer copies a status into the object a status update stores,
// sharing with the status it replaces every field the update left as it
// was. A controller writes its status after every phase, and mostly
// changes one or two fields of it (the phase, the last error): a deep copy
// of the whole status gave every write new transition times, conditions and
// references, a tenth of a big run's allocations.
//
// Sharing is safe because the store never changes a stored object in
// place: old and new are both stored objects. The caller's status is never
// shared; a field is taken from old only when it equals the caller's and
// shares no memory with it (equalApart), so the stored bytes are the same
// as after a deep copy.
type statusSharer[T any] struct {
	// fields are the fields of T that are pointers, slices or maps, which a
	// deep copy copies; strings and plain values are copied by assignment
	// either way, and other fields that hold pointers (interfaces, structs)
	// are always deep-copied.
	fields []sharedField
}

// sharedField is one field of a status that may be shared.
type sharedField struct {
	offset uintptr
	slice  bool // a slice, else one pointer word (a pointer or a map)
	apart  apartFunc
}

// newStatusSharer returns the statusSharer of status type T.
func newStatusSharer[T any]() *statusSharer[T] {
	t := reflect.TypeFor[T]()
	s := &statusSharer[T]{}
	for i := range t.NumField() {
		f := t.Field(i)
		k := f.Type.Kind()
		if k != reflect.Pointer && k != reflect.Slice && k != reflect.Map || holdsBytes(f.Type, map[reflect.Type]bool{}) {
			continue // bytes: equalApart lets copies share them, and a RawExtension decodes into its own
		}
		s.fields = append(s.fields, sharedField{offset: f.Offset, slice: k == reflect.Slice, apart: apartFuncFor(f.Type)})
	}
	return s
}

// holdsBytes reports whether a value of t can hold a byte slice; seen
// holds the types already looked at, for types that refer to themselves.
func holdsBytes(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Slice:
		return t.Elem().Kind() == reflect.Uint8 || holdsBytes(t.Elem(), seen)
	case reflect.Pointer, reflect.Array:
		return holdsBytes(t.Elem(), seen)
	case reflect.Map:
		return holdsBytes(t.Key(), seen) || holdsBytes(t.Elem(), seen)
	case reflect.Interface:
		return true // anything may be behind it
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsBytes(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// copyInto makes dst a deep copy of src that shares with old each field
// equal to old's; deepCopyInto is T's generated deep copy.
func (s *statusSharer[T]) copyInto(dst, old, src *T, deepCopyInto func(in, out *T)) {
	masked := *src  // shallow: only the fields that differ from old keep src's memory
	var same uint64 // bit i: field i is taken from old
	for i, f := range s.fields {
		if i < 64 && f.apart(fieldOf(src, f), fieldOf(old, f)) {
			same |= 1 << i
			f.set(fieldOf(&masked, f), nil)
		}
	}
	deepCopyInto(&masked, dst)
	for i, f := range s.fields {
		if same&(1<<i) != 0 {
			f.set(fieldOf(dst, f), fieldOf(old, f))
		}
	}
}

// fieldOf returns the address of field f of *v.
func fieldOf[T any](v *T, f sharedField) unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(v), f.offset)
}

// set assigns the field at from to the field at to, or zero when from is
// nil; the stores are typed, so the collector sees them.
func (f sharedField) set(to, from unsafe.Pointer) {
	switch {
	case f.slice && from == nil:
		*(*sliceHeader)(to) = sliceHeader{}
	case f.slice:
		*(*sliceHeader)(to) = *(*sliceHeader)(from)
	case from == nil:
		*(*unsafe.Pointer)(to) = nil
	default:
		*(*unsafe.Pointer)(to) = *(*unsafe.Pointer)(from)
	}
}
