package fakecluster

import "reflect"

// SpecEqual reports whether a and b, of the same type, have the same spec:
// every field but TypeMeta, ObjectMeta and Status. It is what decides whether
// an update bumps metadata.generation.
func SpecEqual(a, b Object) bool {
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	return !specChanged(a, b)
}

// CopySpec sets the spec fields of dst (every field but TypeMeta, ObjectMeta
// and Status) to deep copies of those of src. Both must be of the same type.
func CopySpec(dst, src Object) {
	fresh := structOf(src.DeepCopyObject().(Object))
	dv := structOf(dst)
	for _, i := range infoOf(dst).spec {
		dv.Field(i).Set(fresh.Field(i))
	}
}
