package fakecluster

import (
	"reflect"
	"testing"
	"unsafe"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestStatusUpdateStoresACopy: the object a status update stores has
// exactly the caller's status (reflect.DeepEqual: nil and empty apart, times
// with their zones) and shares no memory with it, whatever the status it
// replaces, which stays as it was. Random statuses of the three kinds, the
// old one random, equal, with one field changed, with nil and empty
// swapped, or holding the same bytes.
func TestStatusUpdateStoresACopy(t *testing.T) {
	fill := statusFiller(5, 0.3, 0)
	for i := range 3000 {
		newObj := statusKinds[i%len(statusKinds)]
		old, src := newObj(), newObj()
		fill.Fill(statusOf(src).Addr().Interface())
		switch i % 5 {
		case 4: // the caller's provider status holds the stored one's bytes
			old = src.DeepCopyObject().(Object)
			if d, ok := src.(*lsv1alpha1.DeployItem); ok && d.Status.ProviderStatus != nil {
				d.Status.ProviderStatus = &runtime.RawExtension{Raw: old.(*lsv1alpha1.DeployItem).Status.ProviderStatus.Raw}
			}
		case 0:
			fill.Fill(statusOf(old).Addr().Interface())
		case 1:
			old = src.DeepCopyObject().(Object)
		case 2:
			old = src.DeepCopyObject().(Object)
			swapNilAndEmpty(statusOf(old))
		default:
			old = src.DeepCopyObject().(Object)
			mutateLeaf(statusOf(old), i%53)
		}
		oldBefore := old.DeepCopyObject()
		srcBefore := src.DeepCopyObject()

		next := withStatusOf(old, src)

		if got, want := statusOf(next).Interface(), statusOf(src).Interface(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%d, %T: stored status\n%+v\nthe caller's\n%+v", i, next, got, want)
		}
		if !equalApart(statusOf(next), statusOf(src)) || sharesBytes(statusOf(next), statusOf(src)) {
			t.Fatalf("%d, %T: the stored status shares memory with the caller's", i, next)
		}
		if !reflect.DeepEqual(old, oldBefore) || !reflect.DeepEqual(src, srcBefore) {
			t.Fatalf("%d, %T: the update changed the stored or the caller's object", i, next)
		}
	}
}

// TestStatusUpdateSharesWhatDidNotChange: a status update that changes only
// the job ID stores every other pointer, slice and map field as it was
// stored (the same memory), except the provider status, which holds bytes
// and is copied.
func TestStatusUpdateSharesWhatDidNotChange(t *testing.T) {
	fill := statusFiller(9, 0, 1)
	for _, newObj := range statusKinds {
		old := newObj()
		fill.Fill(statusOf(old).Addr().Interface())
		src := old.DeepCopyObject().(Object)
		statusOf(src).FieldByName("JobID").SetString("changed")

		next := withStatusOf(old, src)

		typ := statusOf(old).Type()
		checked := 0
		for i := range typ.NumField() {
			f := typ.Field(i)
			if k := f.Type.Kind(); k != reflect.Pointer && k != reflect.Slice && k != reflect.Map {
				continue
			}
			checked++
			want := f.Name != "ProviderStatus"
			if got := sameBits(statusOf(next).Field(i), statusOf(old).Field(i)); got != want {
				t.Errorf("%s.%s: stored as it was %v, want %v", typ, f.Name, got, want)
			}
		}
		if checked < 6 {
			t.Errorf("%s: only %d fields checked", typ, checked)
		}
	}
}

// sameBits reports whether two addressable values of one type have the same
// bits: the same pointers, slice headers and plain values.
func sameBits(a, b reflect.Value) bool {
	size := a.Type().Size()
	return string(unsafe.Slice((*byte)(a.Addr().UnsafePointer()), size)) ==
		string(unsafe.Slice((*byte)(b.Addr().UnsafePointer()), size))
}

// sharesBytes reports whether a byte slice reachable from a shares its
// memory with the byte slice at the same place in b (equalApart allows it).
func sharesBytes(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() || a.Elem().Kind() != b.Elem().Kind() {
			return false
		}
		return sharesBytes(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Type().Elem().Kind() == reflect.Uint8 {
			return a.Cap() > 0 && b.Cap() > 0 && a.UnsafePointer() == b.UnsafePointer()
		}
		for i := range min(a.Len(), b.Len()) {
			if sharesBytes(a.Index(i), b.Index(i)) {
				return true
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if sharesBytes(a.Field(i), b.Field(i)) {
				return true
			}
		}
	}
	return false
}
