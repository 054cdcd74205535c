package fakecluster

import (
	"bytes"
	"reflect"
	"sync"
	"unsafe"
)

// apartFunc is equalApart for two values of one type, given their
// addresses.
type apartFunc func(a, b unsafe.Pointer) bool

// apartFuncs caches the apartFunc of each type (reflect.Type → apartFunc);
// apartBuild guards building them, with the ones under construction.
var (
	apartFuncs sync.Map
	apartBuild struct {
		sync.Mutex
		building map[reflect.Type]*apartFunc
	}
)

// apartFuncFor returns the apartFunc of t: what equalApart does for values
// of type t, built once from t's layout, so that a comparison walks offsets
// instead of reflect.Values. Maps and interfaces, which need the map and
// type machinery, are compared by equalApart itself.
func apartFuncFor(t reflect.Type) apartFunc {
	if f, ok := apartFuncs.Load(t); ok {
		return f.(apartFunc)
	}
	apartBuild.Lock()
	defer apartBuild.Unlock()
	if apartBuild.building == nil {
		apartBuild.building = map[reflect.Type]*apartFunc{}
	}
	return buildApart(t)
}

// buildApart builds the apartFunc of t; apartBuild is locked. A type that
// refers to itself gets a function that calls the one being built.
func buildApart(t reflect.Type) apartFunc {
	if f, ok := apartFuncs.Load(t); ok {
		return f.(apartFunc)
	}
	if p, ok := apartBuild.building[t]; ok {
		return func(a, b unsafe.Pointer) bool { return (*p)(a, b) }
	}
	p := new(apartFunc)
	apartBuild.building[t] = p
	*p = newApartFunc(t)
	delete(apartBuild.building, t)
	apartFuncs.Store(t, *p)
	return *p
}

// newApartFunc builds the apartFunc of t (see buildApart).
func newApartFunc(t reflect.Type) apartFunc {
	switch t.Kind() {
	case reflect.Bool:
		return func(a, b unsafe.Pointer) bool { return *(*bool)(a) == *(*bool)(b) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return bitsApart(t.Size())
	case reflect.Float32:
		return func(a, b unsafe.Pointer) bool { return *(*float32)(a) == *(*float32)(b) }
	case reflect.Float64:
		return func(a, b unsafe.Pointer) bool { return *(*float64)(a) == *(*float64)(b) }
	case reflect.String:
		return func(a, b unsafe.Pointer) bool { return *(*string)(a) == *(*string)(b) }
	case reflect.Struct:
		return structApart(t)
	case reflect.Pointer:
		elem := buildApart(t.Elem())
		return func(a, b unsafe.Pointer) bool {
			pa, pb := *(*unsafe.Pointer)(a), *(*unsafe.Pointer)(b)
			if pa == nil || pb == nil {
				return pa == pb
			}
			return pa != pb && elem(pa, pb)
		}
	case reflect.Slice:
		return sliceApart(t)
	case reflect.Array:
		elem, size, n := buildApart(t.Elem()), t.Elem().Size(), uintptr(t.Len())
		return func(a, b unsafe.Pointer) bool {
			for i := range n {
				if !elem(unsafe.Add(a, i*size), unsafe.Add(b, i*size)) {
					return false
				}
			}
			return true
		}
	case reflect.Map:
		if t == reflect.TypeFor[map[string]string]() {
			return func(a, b unsafe.Pointer) bool {
				return stringMapsEqualApart(*(*map[string]string)(a), *(*map[string]string)(b))
			}
		}
		fallthrough
	case reflect.Interface:
		return func(a, b unsafe.Pointer) bool {
			return equalApart(reflect.NewAt(t, a).Elem(), reflect.NewAt(t, b).Elem())
		}
	}
	return func(a, b unsafe.Pointer) bool { return false }
}

// bitsApart compares integers of size bytes by their bits.
func bitsApart(size uintptr) apartFunc {
	switch size {
	case 1:
		return func(a, b unsafe.Pointer) bool { return *(*uint8)(a) == *(*uint8)(b) }
	case 2:
		return func(a, b unsafe.Pointer) bool { return *(*uint16)(a) == *(*uint16)(b) }
	case 4:
		return func(a, b unsafe.Pointer) bool { return *(*uint32)(a) == *(*uint32)(b) }
	default:
		return func(a, b unsafe.Pointer) bool { return *(*uint64)(a) == *(*uint64)(b) }
	}
}

// structApart compares every field; a time.Time by its wall clock, its
// monotonic reading and its location, which copies share.
func structApart(t reflect.Type) apartFunc {
	if t == typeTime {
		wall, ext, loc := t.Field(0).Offset, t.Field(1).Offset, t.Field(2).Offset
		return func(a, b unsafe.Pointer) bool {
			return *(*uint64)(unsafe.Add(a, wall)) == *(*uint64)(unsafe.Add(b, wall)) &&
				*(*int64)(unsafe.Add(a, ext)) == *(*int64)(unsafe.Add(b, ext)) &&
				*(*unsafe.Pointer)(unsafe.Add(a, loc)) == *(*unsafe.Pointer)(unsafe.Add(b, loc))
		}
	}
	type field struct {
		offset uintptr
		apart  apartFunc
	}
	fields := make([]field, t.NumField())
	for i := range fields {
		f := t.Field(i)
		fields[i] = field{offset: f.Offset, apart: buildApart(f.Type)}
	}
	return func(a, b unsafe.Pointer) bool {
		for _, f := range fields {
			if !f.apart(unsafe.Add(a, f.offset), unsafe.Add(b, f.offset)) {
				return false
			}
		}
		return true
	}
}

// sliceHeader is the layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// sliceApart compares slices element by element; byte slices by their
// bytes, which copies may share.
func sliceApart(t reflect.Type) apartFunc {
	if t.Elem().Kind() == reflect.Uint8 {
		return func(a, b unsafe.Pointer) bool {
			sa, sb := (*sliceHeader)(a), (*sliceHeader)(b)
			return (sa.data == nil) == (sb.data == nil) &&
				bytes.Equal(unsafe.Slice((*byte)(sa.data), sa.len), unsafe.Slice((*byte)(sb.data), sb.len))
		}
	}
	elem, size := buildApart(t.Elem()), t.Elem().Size()
	return func(a, b unsafe.Pointer) bool {
		sa, sb := (*sliceHeader)(a), (*sliceHeader)(b)
		if (sa.data == nil) != (sb.data == nil) || sa.len != sb.len {
			return false
		}
		if sa.cap > 0 && sb.cap > 0 && sa.data == sb.data {
			return false
		}
		for i := range uintptr(sa.len) {
			if !elem(unsafe.Add(sa.data, i*size), unsafe.Add(sb.data, i*size)) {
				return false
			}
		}
		return true
	}
}
