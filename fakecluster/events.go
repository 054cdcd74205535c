package fakecluster

import "k8s.io/apimachinery/pkg/runtime/schema"

// emitLocked queues an event for the watchers. old and next are stored (or
// just removed) objects; the store never changes an object once stored (a
// write stores a new one), so the event shares them instead of copying: the
// watchers read them and must not modify them. With no watchers it does
// nothing, so that a cluster nobody watches pays nothing for events.
func (c *Cluster) emitLocked(t EventType, gk schema.GroupKind, old, next Object) {
	if len(c.watchers) == 0 {
		return
	}
	ev := Event{Type: t, Kind: gk.Kind, New: next, Old: old}
	c.pending = append(c.pending, queuedEvent{ev: ev, watchers: len(c.watchers)})
}

// queuedEvent is an event waiting for delivery to the first watchers
// watchers: those registered when the change happened.
type queuedEvent struct {
	ev       Event
	watchers int
}

// deliver calls the watchers with the queued events, oldest first. Every
// write calls it after releasing the lock, so that watchers can read (and
// write) the cluster.
//
// Only one goroutine delivers at a time, which keeps events in order. A write
// made while another delivery is under way, such as a write from inside a
// watcher, queues its events and returns; the delivering goroutine passes
// them on after the current event.
func (c *Cluster) deliver() {
	if !c.startDelivery() {
		return
	}
	done := false
	defer func() {
		if !done { // a watcher panicked: let the next write deliver the rest
			c.mu.Lock()
			c.delivering = false
			c.mu.Unlock()
		}
	}()
	for {
		ev, watchers, ok := c.nextEvent()
		if !ok {
			done = true
			return
		}
		notify(watchers, ev)
	}
}

// startDelivery claims delivery; it is false when there is nothing to
// deliver or another goroutine is delivering.
func (c *Cluster) startDelivery() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.delivering || len(c.pending) == 0 {
		return false
	}
	c.delivering = true
	return true
}

// nextEvent pops the oldest queued event. When there is none it ends the
// delivery in the same critical section, so no event can be left behind.
func (c *Cluster) nextEvent() (Event, []WatchFunc, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		c.pending = nil
		c.delivering = false
		return Event{}, nil, false
	}
	q := c.pending[0]
	c.pending[0] = queuedEvent{}
	c.pending = c.pending[1:]
	return q.ev, c.watchers[:q.watchers], true
}

// notify calls every watcher with ev.
func notify(watchers []WatchFunc, ev Event) {
	for _, w := range watchers {
		w(ev)
	}
}
