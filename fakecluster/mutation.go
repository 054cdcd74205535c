package fakecluster

import (
	"fmt"
	"reflect"
)

// DetectMutations makes the Clusters created while it is true check that no
// stored object is changed in place, as client-go's cache mutation detector
// (KUBE_CACHE_MUTATION_DETECTOR) does for informers: each keeps a deep copy
// of every object it stores and compares the object with it when the object
// is replaced or removed, and when all stored objects are handed out
// (Objects, SharedObjects); a difference panics, naming the object. Readers
// on hot paths share the stored objects (GetUnsafe, ListUnsafe, Select,
// GetShared) on the promise that they only read them; this holds them to it.
// It doubles the memory of the stored objects and is meant for tests: set
// it in a test's TestMain.
var DetectMutations bool

// mutationWatch keeps a pristine deep copy of every stored object.
type mutationWatch struct {
	pristine map[objKey]Object
}

func newMutationWatch() *mutationWatch {
	if !DetectMutations {
		return nil
	}
	return &mutationWatch{pristine: map[objKey]Object{}}
}

// stored checks the object stored under k until now, if any, and keeps a
// copy of obj, which is stored there next.
func (w *mutationWatch) stored(k objKey, old Object, obj Object) {
	if w == nil {
		return
	}
	if old != nil {
		w.check(k, old)
	}
	w.keep(k, obj)
}

// keep takes a new copy of obj, stored under k, without a check: for the
// store's own changes to an object it has just stored (a resourceVersion
// Restore fills in).
func (w *mutationWatch) keep(k objKey, obj Object) {
	if w == nil {
		return
	}
	w.pristine[k] = obj.DeepCopyObject().(Object)
}

// removed checks obj, the object stored under k until now.
func (w *mutationWatch) removed(k objKey, obj Object) {
	if w == nil {
		return
	}
	w.check(k, obj)
	delete(w.pristine, k)
}

// checkAll checks every stored object of s.
func (w *mutationWatch) checkAll(s *store) {
	if w == nil {
		return
	}
	for _, k := range s.all() {
		obj, _ := s.get(k)
		w.check(k, obj)
	}
}

// check panics when obj differs from the copy kept when it was stored.
func (w *mutationWatch) check(k objKey, obj Object) {
	want, ok := w.pristine[k]
	if !ok || reflect.DeepEqual(want, obj) {
		return
	}
	panic(fmt.Sprintf("fakecluster: stored %s %s/%s was changed in place (by a reader of a shared object?): stored %+v, now %+v",
		k.gk.Kind, k.namespace, k.name, want, obj))
}
