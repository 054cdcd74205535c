package fakecluster

import "k8s.io/apimachinery/pkg/runtime/schema"

// emitLocked queues an event for the watchers. It copies old and next, which
// are stored (or just removed) objects. With no watchers it does nothing, so
// that a cluster nobody watches pays nothing for events.
func (c *Cluster) emitLocked(t EventType, gk schema.GroupKind, old, next Object) {
	if len(c.watchers) == 0 {
		return
	}
	ev := Event{Type: t, Kind: gk.Kind, New: copyObject(next)}
	if old != nil {
		ev.Old = copyObject(old)
	}
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

// notify calls every watcher with its own copy of ev.
func notify(watchers []WatchFunc, ev Event) {
	for i, w := range watchers {
		e := ev
		if i < len(watchers)-1 {
			e = copyEvent(ev)
		}
		w(e)
	}
}

func copyEvent(ev Event) Event {
	out := Event{Type: ev.Type, Kind: ev.Kind, New: copyObject(ev.New)}
	if ev.Old != nil {
		out.Old = copyObject(ev.Old)
	}
	return out
}
