package fakecluster

import (
	"bytes"
	"reflect"
	"sync"
	"time"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// copyResultInto makes obj a copy of result, as copyObjectInto(obj, result)
// does, for obj the object a write was given and result the object the write
// stored. A write mostly changes a few fields of the metadata that only the
// server sets (resourceVersion; on create also uid, generation and creation
// time): when everything else of obj is already what result holds, and
// shares no memory with it, only those fields are set. Anything else is
// copied whole, as before. It saves the deep copy of every object written
// back, the most part of what a write allocated. statusCopied says that
// result's status is a copy of obj's (a status update), which need not be
// compared.
func copyResultInto(obj, result Object, statusCopied bool) error {
	if reflect.TypeOf(obj) != reflect.TypeOf(result) || reflect.ValueOf(obj).IsNil() || !setServerFields(obj, result, statusCopied) {
		return copyObjectInto(obj, result)
	}
	return nil
}

// setCreatedFields makes obj what Create stored from it: result, a copy
// of obj (as copyObject copies) in which the server set its kind, name (from
// generateName), namespace (cleared for cluster-scoped kinds), uid,
// resourceVersion, generation and creation time, and cleared the deletion
// fields. TestWrittenObjectIsStored checks that nothing else differs.
func setCreatedFields(obj, result Object) {
	keepServerFields(obj, result)
	obj.SetName(result.GetName())
}

// setServerFields sets the server's fields of obj's metadata (see
// copyResultInto) and its TypeMeta to result's and reports true, when all
// else of the two is equal and apart; else it changes nothing and reports
// false. obj and result are non-nil pointers to the same struct type. With
// skipStatus, their statuses are taken to be equal and apart.
func setServerFields(obj, result Object, skipStatus bool) bool {
	ti := infoOf(obj)
	if ti.meta < 0 {
		return false
	}
	dv, sv := structOf(obj), structOf(result)
	a, b := dv.Addr().UnsafePointer(), sv.Addr().UnsafePointer()
	for _, f := range ti.specApart {
		if !f.apart(unsafe.Add(a, f.offset), unsafe.Add(b, f.offset)) {
			return false
		}
	}
	if ti.status >= 0 && !skipStatus && !ti.statusApart.apart(unsafe.Add(a, ti.statusApart.offset), unsafe.Add(b, ti.statusApart.offset)) {
		return false
	}
	dm := dv.Field(ti.meta).Addr().Interface().(*metav1.ObjectMeta)
	sm := sv.Field(ti.meta).Addr().Interface().(*metav1.ObjectMeta)
	if !metaEqualApartButServerFields(dm, sm) {
		return false
	}
	if ti.typeMeta >= 0 {
		dv.Field(ti.typeMeta).Set(sv.Field(ti.typeMeta))
	}
	dm.Name, dm.GenerateName, dm.Namespace, dm.SelfLink = sm.Name, sm.GenerateName, sm.Namespace, sm.SelfLink
	dm.UID, dm.ResourceVersion, dm.Generation = sm.UID, sm.ResourceVersion, sm.Generation
	dm.CreationTimestamp = sm.CreationTimestamp
	return true
}

// metaEqualApartButServerFields reports whether the fields of a and b that
// hold memory of their own (maps, slices, pointers: metaComparedFields) are
// equal and apart (see equalApart). The plain fields, which setServerFields
// sets, are not compared. TestObjectMetaFieldsAreKnown keeps the two lists
// complete.
func metaEqualApartButServerFields(a, b *metav1.ObjectMeta) bool {
	pa, pb := unsafe.Pointer(a), unsafe.Pointer(b)
	for _, f := range metaApart() {
		if !f.apart(unsafe.Add(pa, f.offset), unsafe.Add(pb, f.offset)) {
			return false
		}
	}
	return true
}

// metaComparedFields are the fields of ObjectMeta a write's copy-back
// compares; it sets the others.
var metaComparedFields = []string{"DeletionTimestamp", "DeletionGracePeriodSeconds", "Labels", "Annotations",
	"OwnerReferences", "Finalizers", "ManagedFields"}

// metaApart compares metaComparedFields.
var metaApart = sync.OnceValue(func() []fieldApart {
	var out []fieldApart
	for _, name := range metaComparedFields {
		f, _ := typeObjectMeta.FieldByName(name)
		out = append(out, fieldApart{offset: f.Offset, apart: apartFuncFor(f.Type)})
	}
	return out
})

// stringMapsEqualApart is equalApart for map[string]string, without
// reflection.
func stringMapsEqualApart(a, b map[string]string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	if a == nil {
		return true
	}
	if reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

var typeTime = reflect.TypeFor[time.Time]()

// equalApart reports whether a and b, two values of the same type, are
// equal as reflect.DeepEqual sees them (nil and empty apart, times by
// instant and location) and share no memory a change through one could
// reach the other by: no map, pointer or slice array in common. Byte slices
// may be shared (the raw JSON copyObject shares is never changed in place),
// and so may a time's location. Values it does not know how to compare
// (functions, channels) are not equal. Like the API types, the values must
// have no cycles.
func equalApart(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Struct:
		if a.Type() == typeTime {
			// wall, ext, loc: the location is shared by every copy of a time.
			return a.Field(0).Uint() == b.Field(0).Uint() && a.Field(1).Int() == b.Field(1).Int() &&
				a.Field(2).Pointer() == b.Field(2).Pointer()
		}
		for i := range a.NumField() {
			if !equalApart(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Pointer() != b.Pointer() && equalApart(a.Elem(), b.Elem())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Elem().Type() == b.Elem().Type() && equalApart(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Type().Elem().Kind() == reflect.Uint8 {
			return bytes.Equal(a.Bytes(), b.Bytes())
		}
		if a.Cap() > 0 && b.Cap() > 0 && a.UnsafePointer() == b.UnsafePointer() {
			return false
		}
		return elementsEqualApart(a, b)
	case reflect.Array:
		return elementsEqualApart(a, b)
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.IsNil() {
			return true
		}
		if a.UnsafePointer() == b.UnsafePointer() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			w := b.MapIndex(it.Key())
			if !w.IsValid() || !equalApart(it.Value(), w) {
				return false
			}
		}
		return true
	}
	return false
}

// elementsEqualApart is equalApart for each element of two slices or
// arrays of the same length.
func elementsEqualApart(a, b reflect.Value) bool {
	for i := range a.Len() {
		if !equalApart(a.Index(i), b.Index(i)) {
			return false
		}
	}
	return true
}
