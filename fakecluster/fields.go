package fakecluster

import (
	"fmt"
	"reflect"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/internal/semantic"
)

// typeInfo describes the top-level fields of one Go object type.
type typeInfo struct {
	// typeMeta is the index of the embedded metav1.TypeMeta, or -1.
	typeMeta int
	// meta is the index of the embedded metav1.ObjectMeta, or -1.
	meta int
	// status is the index of the Status field, or -1 when the type has no
	// status subresource (no Status field of struct type).
	status int
	// spec lists the indexes of every field that counts for
	// metadata.generation: all but TypeMeta, ObjectMeta and Status.
	spec []int
	// specApart and statusApart compare the spec fields and the status of
	// two objects (see equalApart), by their offsets.
	specApart   []fieldApart
	statusApart fieldApart
}

// fieldApart is the apartFunc of one field at its offset in the object.
type fieldApart struct {
	offset uintptr
	apart  apartFunc
}

var (
	typeTypeMeta   = reflect.TypeFor[metav1.TypeMeta]()
	typeObjectMeta = reflect.TypeFor[metav1.ObjectMeta]()
)

// typeInfos caches typeInfo per Go struct type (reflect.Type → *typeInfo).
// It is package-wide because the answer depends on the type only.
var typeInfos sync.Map

// infoOf returns the cached typeInfo of obj's struct type.
func infoOf(obj Object) *typeInfo {
	t := reflect.TypeOf(obj).Elem()
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti, _ := typeInfos.LoadOrStore(t, newTypeInfo(t))
	return ti.(*typeInfo)
}

func newTypeInfo(t reflect.Type) *typeInfo {
	ti := &typeInfo{typeMeta: -1, meta: -1, status: -1}
	if t.Kind() != reflect.Struct {
		return ti
	}
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Type == typeTypeMeta:
			ti.typeMeta = i
		case f.Type == typeObjectMeta:
			ti.meta = i
		case f.Name == "Status" && f.Type.Kind() == reflect.Struct:
			ti.status = i
		default:
			ti.spec = append(ti.spec, i)
			ti.specApart = append(ti.specApart, fieldApart{offset: f.Offset, apart: apartFuncFor(f.Type)})
		}
	}
	if ti.status >= 0 {
		f := t.Field(ti.status)
		ti.statusApart = fieldApart{offset: f.Offset, apart: apartFuncFor(f.Type)}
	}
	return ti
}

// hasStatus reports whether obj's kind has a status subresource.
func hasStatus(obj Object) bool { return infoOf(obj).status >= 0 }

// structOf returns the struct obj points to. Every registered object is a
// pointer to a struct; anything else is a programmer error.
func structOf(obj Object) reflect.Value {
	return reflect.ValueOf(obj).Elem()
}

// copyStatus sets dst's status to a deep copy of src's status. Both must be
// of the same type, which must have a status subresource.
func copyStatus(dst, src Object) {
	i := infoOf(dst).status
	deepCopyField(structOf(dst).Field(i), structOf(src).Field(i))
}

// deepCopyField sets dst to a deep copy of src, two addressable struct
// fields of a generated API type, through the type's DeepCopyInto, so that
// only that field is copied.
func deepCopyField(dst, src reflect.Value) {
	m := src.Addr().MethodByName("DeepCopyInto")
	if !m.IsValid() {
		dst.Set(src) // plain values need no deep copy
		return
	}
	fresh := reflect.New(src.Type())
	m.Call([]reflect.Value{fresh})
	dst.Set(fresh.Elem())
}

// withStatusOf returns a new object of stored's type with a copy of stored's
// metadata, stored's spec (shared, not copied: the store never changes an
// object it has stored, and neither may anyone else) and a copy of src's
// status. It is what a status update stores.
func withStatusOf(stored, src Object) Object {
	if next, ok := withLandscaperStatus(stored, src); ok {
		return next
	}
	ti := infoOf(stored)
	v := reflect.New(reflect.TypeOf(stored).Elem())
	v.Elem().Set(structOf(stored))
	meta := v.Elem().Field(ti.meta).Addr().Interface().(*metav1.ObjectMeta)
	*meta = *meta.DeepCopy()
	deepCopyField(v.Elem().Field(ti.status), structOf(src).Field(ti.status))
	return v.Interface().(Object)
}

// specChanged reports whether any field other than metadata and status
// differs between a and b, which must be of the same type.
func specChanged(a, b Object) bool {
	av, bv := structOf(a), structOf(b)
	for _, i := range infoOf(a).spec {
		if !fieldsEqual(av.Field(i), bv.Field(i)) {
			return true
		}
	}
	return false
}

// statusChanged reports whether the status of a and b differs. It is false
// for kinds without a status subresource, whose status is part of the spec.
func statusChanged(a, b Object) bool {
	if equal, ok := landscaperStatusEqual(a, b); ok {
		return !equal
	}
	i := infoOf(a).status
	if i < 0 {
		return false
	}
	return !fieldsEqual(structOf(a).Field(i), structOf(b).Field(i))
}

// metaChanged reports whether the ObjectMeta of a and b differs.
func metaChanged(a, b Object) bool {
	i := infoOf(a).meta
	return !fieldsEqual(structOf(a).Field(i), structOf(b).Field(i))
}

// fieldsEqual compares two addressable fields of the same type with
// semantic equality, through pointers to them: boxing the fields
// themselves would copy them (a status, a spec) on every write.
func fieldsEqual(a, b reflect.Value) bool {
	return semantic.DeepEqual(a.Addr().Interface(), b.Addr().Interface())
}

// checkStorable returns an error unless obj is a non-nil pointer to a struct
// that embeds metav1.ObjectMeta, which every function here relies on.
func checkStorable(obj Object) error {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("%T: must be a non-nil pointer", obj)
	}
	if infoOf(obj).meta < 0 {
		return fmt.Errorf("%T: must be a struct that embeds metav1.ObjectMeta", obj)
	}
	return nil
}

// copyInto sets *dst to *src. src must be a copy nobody else holds, so that
// dst does not share memory with the store. A type mismatch is an error.
func copyInto(dst Object, src Object) error {
	dv, sv := reflect.ValueOf(dst), reflect.ValueOf(src)
	if dv.Kind() != reflect.Pointer || dv.IsNil() {
		return fmt.Errorf("copy into %T: must be a non-nil pointer", dst)
	}
	if dv.Type() != sv.Type() {
		return fmt.Errorf("copy %T into %T: types differ", src, dst)
	}
	dv.Elem().Set(sv.Elem())
	return nil
}
