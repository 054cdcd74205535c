package fakecluster

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestKeySetIsASet: a keySet behaves as a map of entries, below, at and
// beyond the size at which it changes from slice to map.
func TestKeySetIsASet(t *testing.T) {
	var nilSet *keySet
	if nilSet.len() != 0 || nilSet.has(&entry{}) || len(slices.Collect(nilSet.all())) != 0 {
		t.Fatal("the nil set is not empty")
	}
	entries := make([]*entry, 3*smallSet)
	for i := range entries {
		entries[i] = &entry{key: objKey{gk: schema.GroupKind{Kind: "K"}, namespace: "ns", name: fmt.Sprint(i)}}
	}
	key := func(i int) *entry { return entries[i] }
	s := &keySet{}
	want := map[*entry]bool{}
	check := func(step string) {
		t.Helper()
		got := map[*entry]bool{}
		for k := range s.all() {
			if got[k] {
				t.Fatalf("%s: %v twice", step, k)
			}
			got[k] = true
		}
		if !maps.Equal(got, want) || s.len() != len(want) {
			t.Fatalf("%s: keys %v (len %d), want %v", step, got, s.len(), want)
		}
		for i := range 3 * smallSet {
			if s.has(key(i)) != want[key(i)] {
				t.Fatalf("%s: has(%d) = %v", step, i, s.has(key(i)))
			}
		}
	}
	for i := range 2 * smallSet {
		s.add(key(i))
		s.add(key(i))
		want[key(i)] = true
		check(fmt.Sprintf("add %d", i))
	}
	for i := 0; i < 2*smallSet; i += 3 {
		s.remove(key(i))
		s.remove(key(i))
		delete(want, key(i))
		check(fmt.Sprintf("remove %d", i))
	}
	small := &keySet{}
	for i := range smallSet {
		small.add(key(i))
	}
	for i := range smallSet {
		small.remove(key(i))
		if small.len() != smallSet-1-i || small.has(key(i)) {
			t.Fatalf("small set after removing %d: len %d", i, small.len())
		}
	}
}
