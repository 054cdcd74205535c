package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/lscli/lscli/state"
)

// TestTimelineIsAppend: recording changes of any number of entries, across
// block borders, on a restored timeline, reads back as one growing slice
// would; and a timeline read before keeps what it held.
func TestTimelineIsAppend(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	restored := []state.Event{{Name: "r0"}, {Name: "r1"}}
	tl := timeline{done: restored}
	want := slices.Clone(restored)
	var reads [][]state.Event
	var wantReads [][]state.Event
	n := 0
	for range 3000 {
		entries := make([]state.Event, rnd.IntN(7))
		for i := range entries {
			entries[i] = state.Event{Name: fmt.Sprint(n)}
			n++
		}
		tl.add(entries)
		want = append(want, entries...)
		if rnd.IntN(500) == 0 {
			reads = append(reads, tl.all())
			wantReads = append(wantReads, slices.Clone(want))
		}
	}
	if got := tl.all(); !reflect.DeepEqual(got, want) {
		t.Fatalf("timeline of %d entries differs from the appended one", len(got))
	}
	if n < 2*timelineBlock {
		t.Fatalf("only %d entries: the test should cross block borders", n)
	}
	for i := range reads {
		if !reflect.DeepEqual(reads[i], wantReads[i]) {
			t.Errorf("read %d changed after later entries", i)
		}
	}
	if !reflect.DeepEqual(restored, []state.Event{{Name: "r0"}, {Name: "r1"}}) {
		t.Error("the restored entries were written through")
	}
}

// TestAnnotationChanges: added, changed and removed annotations, sorted, the
// reconcile-time annotation left out; one map, or two equal ones, change
// nothing.
func TestAnnotationChanges(t *testing.T) {
	old := map[string]string{"a": "1", "b": "2", "landscaper.gardener.cloud/reconcile-time": "t0"}
	cur := map[string]string{"b": "3", "c": "4", "landscaper.gardener.cloud/reconcile-time": "t1"}
	want := []string{"a=1 removed", "b=3", "c=4"}
	if got := annotationChanges(old, cur); !slices.Equal(got, want) {
		t.Errorf("changes = %q, want %q", got, want)
	}
	if got := annotationChanges(old, old); got != nil {
		t.Errorf("one map: %q", got)
	}
	if got := annotationChanges(old, map[string]string{"a": "1", "b": "2", "landscaper.gardener.cloud/reconcile-time": "t0"}); got != nil {
		t.Errorf("equal maps: %q", got)
	}
	if got := annotationChanges(nil, map[string]string{"x": "y"}); !slices.Equal(got, []string{"x=y"}) {
		t.Errorf("from nil: %q", got)
	}
}
