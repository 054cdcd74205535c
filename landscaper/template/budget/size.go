package budget

import (
	"errors"
	"fmt"
	"reflect"
)

// sizeKey identifies a list (by its elements and length) or a map, whose
// expanded size is memoized within one execution: a template can build a
// value that refers to another many times (list $a $a), and such a value
// doubles with each level while taking no memory, until something writes
// it out.
type sizeKey struct {
	ptr  uintptr
	len  int
	kind reflect.Kind
}

// ElementCost is what an element of a list or map counts besides its own
// size, roughly what it takes when written out.
const ElementCost = 8

// errTooBig ends a walk past the size limit.
var errTooBig = errors.New("too big")

// ValuesSize returns the size vs take when written out (JSON, YAML, fmt),
// references expanded, up to the size limit: past it, it fails, saying
// that what would be at least so big. A value that contains itself (dict d,
// set d "a" d) fails too: writing it would never end.
func (b *Budget) ValuesSize(what string, vs ...any) (int64, error) {
	w := sizeWalk{b: b}
	for _, v := range vs {
		var err error
		switch v := v.(type) {
		case string:
			_, err = w.add(int64(len(v)))
		case []byte:
			_, err = w.add(int64(len(v)))
		case nil, bool, int, int64, float64:
			_, err = w.add(ElementCost)
		default:
			_, err = w.size(reflect.ValueOf(v))
		}
		switch {
		case errors.Is(err, errTooBig):
			return 0, b.tooBig(fmt.Sprintf("%s would be at least %s bytes", what, humanSize(w.total)))
		case err != nil:
			return 0, fmt.Errorf("%s: %w", what, err)
		}
	}
	return w.total, nil
}

// ForgetSizes drops the memoized sizes: a function that changes a map in
// place (set, unset, merge) was called.
func (b *Budget) ForgetSizes() { clear(b.sizes) }

// sizeWalk is one walk of valueSize.
type sizeWalk struct {
	b      *Budget
	total  int64
	onPath map[sizeKey]bool
}

// size returns the size of v, adding it to the walk's total.
func (w *sizeWalk) size(v reflect.Value) (int64, error) {
	if !v.IsValid() {
		return w.add(4)
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return w.add(4)
		}
		if v.Kind() == reflect.Pointer {
			return w.container(v, func() (int64, error) { return w.size(v.Elem()) })
		}
		return w.size(v.Elem())
	case reflect.String:
		return w.add(int64(v.Len()))
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return w.add(int64(v.Len()))
		}
		return w.container(v, func() (int64, error) { return w.elements(v) })
	case reflect.Array:
		return w.elements(v)
	case reflect.Map:
		return w.container(v, func() (int64, error) { return w.entries(v) })
	case reflect.Struct:
		// Templates make lists, maps and strings, not structs: a struct is
		// a value of Go code (a time) or a Spiff node, whose value counts.
		if v.CanInterface() {
			if node, ok := v.Interface().(valuer); ok {
				return w.size(reflect.ValueOf(node.Value()))
			}
		}
		return w.add(ElementCost)
	}
	return w.add(ElementCost)
}

// valuer is a Spiff node: its Value is what it holds.
type valuer interface {
	Value() any
}

// container sizes a list, map or pointer once per walk path: a cycle is an
// error, and a size known from before is taken from the memo.
func (w *sizeWalk) container(v reflect.Value, measure func() (int64, error)) (int64, error) {
	k := sizeKey{ptr: v.Pointer(), kind: v.Kind()}
	if v.Kind() == reflect.Slice {
		k.len = v.Len()
	}
	if k.ptr == 0 {
		return measure()
	}
	if n, ok := w.b.sizes[k]; ok {
		return w.add(n)
	}
	if w.onPath == nil {
		w.onPath = map[sizeKey]bool{}
	}
	if w.b.sizes == nil {
		w.b.sizes = map[sizeKey]int64{}
	}
	if w.onPath[k] {
		return 0, fmt.Errorf("the value contains itself, so writing it out would never end")
	}
	w.onPath[k] = true
	defer delete(w.onPath, k)
	before := w.total
	if _, err := measure(); err != nil {
		return 0, err
	}
	n := w.total - before
	w.b.sizes[k] = n
	return n, nil
}

// elements sizes the elements of a list or array.
func (w *sizeWalk) elements(v reflect.Value) (int64, error) {
	var n int64
	if isScalar(v.Type().Elem().Kind()) {
		return w.add(int64(v.Len()) * ElementCost)
	}
	for i := range v.Len() {
		m, err := w.size(v.Index(i))
		if err != nil {
			return 0, err
		}
		if _, err := w.add(ElementCost); err != nil {
			return 0, err
		}
		n += m + ElementCost
	}
	return n, nil
}

// entries sizes the keys and values of a map.
func (w *sizeWalk) entries(v reflect.Value) (int64, error) {
	var n int64
	it := v.MapRange()
	for it.Next() {
		k, err := w.size(it.Key())
		if err != nil {
			return 0, err
		}
		e, err := w.size(it.Value())
		if err != nil {
			return 0, err
		}
		n += k + e
	}
	return n, nil
}

// add adds n to the walk's total and fails past the size limit.
func (w *sizeWalk) add(n int64) (int64, error) {
	w.total += n
	if w.total > w.b.lim.TemplateSize {
		return 0, errTooBig
	}
	return n, nil
}

// isScalar tells whether values of kind k have a small, fixed size.
func isScalar(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	}
	return false
}
