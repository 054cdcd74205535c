package reconcile

import (
	"container/heap"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// item is one unit of work: a controller to run for one object.
type item struct {
	Controller string
	Key        types.NamespacedName
}

// queue holds ready work and timers. Like client-go's work queue it holds an
// item at most once; unlike it, it has no goroutines and no wall clock: the
// run loop asks it for the next ready item and for the next timer.
type queue struct {
	ready  []item
	queued map[item]bool
	timers timerHeap
	// due is the earliest pending timer of each item.
	due map[item]*timerEntry
	seq uint64
}

type timerEntry struct {
	it       item
	due      time.Time
	deadline bool
	// scheduled marks planned work that does not keep a run alive (see
	// Result.Scheduled).
	scheduled bool
	seq       uint64
	index     int
}

func newQueue() *queue {
	return &queue{queued: map[item]bool{}, due: map[item]*timerEntry{}}
}

// Add makes it ready now.
func (q *queue) Add(it item) {
	if q.queued[it] {
		return
	}
	q.queued[it] = true
	q.ready = append(q.ready, it)
}

// AddAt makes it ready at due. An earlier pending timer of the same item wins;
// a later one is replaced.
func (q *queue) AddAt(it item, due time.Time, deadline, scheduled bool) {
	if e, ok := q.due[it]; ok {
		if !due.Before(e.due) {
			if due.Equal(e.due) {
				e.deadline = e.deadline || deadline
				e.scheduled = e.scheduled && scheduled
			}
			return
		}
		heap.Remove(&q.timers, e.index)
	}
	q.seq++
	e := &timerEntry{it: it, due: due, deadline: deadline && !scheduled, scheduled: scheduled, seq: q.seq}
	q.due[it] = e
	heap.Push(&q.timers, e)
}

// Cancel drops the pending timer of it, if any.
func (q *queue) Cancel(it item) {
	if e, ok := q.due[it]; ok {
		heap.Remove(&q.timers, e.index)
		delete(q.due, it)
	}
}

// Pop takes a ready item. pick chooses which of n ready items to take, which
// lets a seeded source vary the order of independent work.
func (q *queue) Pop(pick func(n int) int) (item, bool) {
	if len(q.ready) == 0 {
		return item{}, false
	}
	i := pick(len(q.ready))
	it := q.ready[i]
	last := len(q.ready) - 1
	q.ready[i] = q.ready[last] // the order of ready work is the seeded pick's anyway
	q.ready = q.ready[:last]
	delete(q.queued, it)
	return it, true
}

// Len is the number of ready items.
func (q *queue) Len() int { return len(q.ready) }

// NextTimer returns the earliest pending timer.
func (q *queue) NextTimer() (*timerEntry, bool) {
	if len(q.timers) == 0 {
		return nil, false
	}
	return q.timers[0], true
}

// FireDue moves every timer due at or before now to the ready list.
func (q *queue) FireDue(now time.Time) {
	for len(q.timers) > 0 && !q.timers[0].due.After(now) {
		e := heap.Pop(&q.timers).(*timerEntry)
		delete(q.due, e.it)
		q.Add(e.it)
	}
}

// Timers lists the pending timers, earliest first.
func (q *queue) Timers() []timerEntry {
	out := make([]timerEntry, len(q.timers))
	for i, e := range q.timers {
		out[i] = *e
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].due.Equal(out[j].due) {
			return out[i].due.Before(out[j].due)
		}
		return out[i].seq < out[j].seq
	})
	return out
}

// timerHeap orders timers by due time, then by insertion.
type timerHeap []*timerEntry

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].due.Equal(h[j].due) {
		return h[i].due.Before(h[j].due)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *timerHeap) Push(x any) {
	e := x.(*timerEntry)
	e.index = len(*h)
	*h = append(*h, e)
}
func (h *timerHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func typesKey(namespace, name string) types.NamespacedName {
	return types.NamespacedName{Namespace: namespace, Name: name}
}
