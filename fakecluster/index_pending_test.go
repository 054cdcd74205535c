package fakecluster

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// TestIndexPendingIsIndex: objects indexed later (putUnindexed, then
// indexPending), on all cores when there are many, have the index entries
// of objects indexed as they are stored: uids, owners, labels and fields,
// also for a key stored twice, one replaced and one removed meanwhile.
func TestIndexPendingIsIndex(t *testing.T) {
	gk := schema.GroupKind{Group: lsv1alpha1.SchemeGroupVersion.Group, Kind: "Installation"}
	byContext := func(obj Object) []string { return []string{obj.(*lsv1alpha1.Installation).Spec.Context} }
	for _, n := range []int{10, minParallel + 100} {
		objs := make([]*lsv1alpha1.Installation, n)
		for i := range objs {
			o := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("i%05d", i), Namespace: fmt.Sprintf("ns%d", i%3),
				UID: types.UID(fmt.Sprintf("u%05d", i)), Labels: map[string]string{"app": fmt.Sprint(i % 7), "n": fmt.Sprint(i)}}}
			if i > 0 {
				o.OwnerReferences = []metav1.OwnerReference{{UID: types.UID(fmt.Sprintf("u%05d", i/2))}, {UID: "shared"}}
			}
			o.Spec.Context = fmt.Sprint("ctx", i%5)
			objs[i] = o
		}
		fill := func(put func(s *store, k objKey, obj Object)) *store {
			s := newStore()
			s.indexers[gk] = map[string]IndexFunc{"context": byContext}
			s.indexLabelKey(gk, "app") // "n" stays unindexed: no List selected by it
			for _, o := range objs {
				put(s, keyOf(gk.WithVersion("v1alpha1"), o), o)
			}
			// The same key again, one replaced, one removed.
			put(s, keyOf(gk.WithVersion("v1alpha1"), objs[1]), objs[1])
			replaced := objs[2].DeepCopy()
			replaced.Labels = map[string]string{"app": "other"}
			put(s, keyOf(gk.WithVersion("v1alpha1"), replaced), replaced)
			s.remove(keyOf(gk.WithVersion("v1alpha1"), objs[3]))
			return s
		}
		want := fill(func(s *store, k objKey, obj Object) { s.put(k, obj) })
		got := fill(func(s *store, k objKey, obj Object) { s.putUnindexed(k, obj) })
		got.indexPending()
		requireSameIndexes(t, fmt.Sprintf("%d objects", n), got, want)
	}
}

// requireSameIndexes fails t unless got has want's uids and owner, label
// and field indexes, and nothing left to index.
func requireSameIndexes(t *testing.T, what string, got, want *store) {
	t.Helper()
	if !reflect.DeepEqual(got.uids, want.uids) {
		t.Errorf("%s: uids differ", what)
	}
	if g, w := setsOf(got.owners), setsOf(want.owners); !reflect.DeepEqual(g, w) {
		t.Errorf("%s: owner index differs", what)
	}
	if g, w := setsOf(got.labels), setsOf(want.labels); !reflect.DeepEqual(g, w) {
		t.Errorf("%s: label index differs", what)
	}
	if g, w := setsOf(got.fields), setsOf(want.fields); !reflect.DeepEqual(g, w) {
		t.Errorf("%s: field index differs", what)
	}
	if len(got.pending) != 0 {
		t.Errorf("%s: %d still pending", what, len(got.pending))
	}
}

// setsOf is an index with each set as its sorted keys, empty sets left out.
func setsOf[K comparable](m map[K]*keySet) map[K][]objKey {
	out := map[K][]objKey{}
	for _, k := range slices.Collect(maps.Keys(m)) {
		if keys := sortedKeys(m[k]); len(keys) > 0 {
			out[k] = keys
		}
	}
	return out
}

// TestAllIsSorted: all lists every stored key in the order of sorting them
// all by compareKeys, for few keys and for many (sorted on all cores), of
// kinds that share a name across groups.
func TestAllIsSorted(t *testing.T) {
	kinds := []schema.GroupKind{{Group: "b", Kind: "Thing"}, {Group: "a", Kind: "Thing"}, {Kind: "Secret"}, {Group: "x", Kind: "Alpha"}}
	for _, n := range []int{7, 3 * minParallel} {
		s := newStore()
		var want []objKey
		for i := range n {
			k := objKey{gk: kinds[i%len(kinds)], namespace: fmt.Sprintf("ns%d", i%3), name: fmt.Sprintf("n%x", (i*7919)%n)}
			if _, dup := s.get(k); dup {
				continue
			}
			s.set(k, &lsv1alpha1.DataObject{})
			want = append(want, k)
		}
		slices.SortFunc(want, compareKeys)
		if got := s.all(); !reflect.DeepEqual(got, want) {
			t.Errorf("%d keys: all is not in compareKeys' order", n)
		}
	}
}

// TestRestoreIsPut: a restore, which fills the object map and builds the
// owner and label indexes side by side once there are many objects, ends
// with the store that storing the restored objects one by one gives. An
// object without a uid gets the one it gets restored alone, and those
// without a resourceVersion get the next ones after the highest loaded, in
// their order.
func TestRestoreIsPut(t *testing.T) {
	for _, n := range []int{10, minParallel + 100} {
		objs := func() []Object {
			out := make([]Object, 0, n)
			for i := range n {
				o := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("i%05d", i), Namespace: fmt.Sprintf("ns%d", i%3),
					Labels: map[string]string{"app": fmt.Sprint(i % 7), "n": fmt.Sprint(i)}}}
				if i%5 != 0 {
					o.UID = types.UID(fmt.Sprintf("u%05d", i))
				}
				if i%4 != 0 {
					o.ResourceVersion = fmt.Sprint(2*i + 1)
				}
				if i > 0 {
					o.OwnerReferences = []metav1.OwnerReference{{UID: types.UID(fmt.Sprintf("u%05d", i/2))}, {UID: "shared"}}
				}
				out = append(out, o)
				if i%9 == 0 {
					out = append(out, &lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("d%05d", i), Namespace: "ns0",
						UID: types.UID(fmt.Sprintf("d%05d", i)), Labels: map[string]string{"app": "1"}}})
				}
			}
			return out
		}
		restored, _ := newTestCluster(t)
		in := objs()
		if err := restored.RestoreOwned(in); err != nil {
			t.Fatal(err)
		}
		want := newStore()
		for _, o := range restored.SharedObjects() {
			gvk, err := restored.kindOf(o)
			if err != nil {
				t.Fatal(err)
			}
			want.put(keyOf(gvk, o), o)
		}
		if !reflect.DeepEqual(restored.store.objects, want.objects) {
			t.Errorf("%d objects: the object map differs from storing them one by one", n)
		}
		requireSameIndexes(t, fmt.Sprintf("%d objects", n), restored.store, want)
		next := uint64(2*(n-1) + 1)
		for i, o := range objs() {
			alone, _ := newTestCluster(t)
			if err := alone.Restore([]Object{o}); err != nil {
				t.Fatal(err)
			}
			if uid := alone.SharedObjects()[0].GetUID(); in[i].GetUID() != uid {
				t.Errorf("%d objects: object %d has uid %s, alone %s", n, i, in[i].GetUID(), uid)
			}
			if o.GetResourceVersion() == "" {
				next++
				if rv := in[i].GetResourceVersion(); rv != fmt.Sprint(next) {
					t.Errorf("%d objects: object %d has resourceVersion %s, want %d", n, i, rv, next)
				}
			}
		}
	}
}
