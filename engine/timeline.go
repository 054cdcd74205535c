package engine

import (
	"slices"

	"github.com/lscli/lscli/state"
)

// timelineBlock is how many entries a block of the timeline holds. A run of
// 10,000 installations records about 350,000 entries.
const timelineBlock = 4096

// timeline is the engine's record of changes, oldest first. New entries go
// into blocks of fixed size, so that recording never copies what is already
// recorded (one growing slice copied it again and again, and allocated five
// times its final size on the way); all joins the blocks once, when the
// timeline is read.
type timeline struct {
	done   []state.Event   // joined; never written through
	blocks [][]state.Event // recorded after done, each block full but the last
	n      int             // entries in blocks
}

// add records entries after the ones recorded before.
func (t *timeline) add(entries []state.Event) {
	for len(entries) > 0 {
		last := len(t.blocks) - 1
		if last < 0 || len(t.blocks[last]) == cap(t.blocks[last]) {
			t.blocks = append(t.blocks, make([]state.Event, 0, timelineBlock))
			last++
		}
		b := t.blocks[last]
		k := min(len(entries), cap(b)-len(b))
		t.blocks[last] = append(b, entries[:k]...)
		entries = entries[k:]
		t.n += k
	}
}

// parts returns the entries recorded, oldest first, without joining them:
// the joined ones and the blocks recorded after them. Neither may be changed;
// entries recorded later do not change them.
func (t *timeline) parts() (done []state.Event, blocks [][]state.Event) {
	return t.done, slices.Clone(t.blocks)
}

// all returns every entry recorded, oldest first. The slice is the
// timeline's own: the caller must not change it. Entries recorded later do
// not change it.
func (t *timeline) all() []state.Event {
	if t.n == 0 {
		return t.done
	}
	out := make([]state.Event, len(t.done), len(t.done)+t.n)
	copy(out, t.done)
	for _, b := range t.blocks {
		out = append(out, b...)
	}
	t.done, t.blocks, t.n = out, nil, 0
	return out
}
