package fakecluster

// EventType says what happened to an object.
type EventType string

// The event types a watcher receives.
const (
	Added    EventType = "Added"
	Modified EventType = "Modified"
	Deleted  EventType = "Deleted"
)

// Event is one change to one object. Old is nil for Added; for Deleted, New is
// the object as it was when it was removed. Both are the stored objects
// themselves, shared by every watcher: a watcher may keep them but must not
// modify them (DeepCopyObject first). The store never changes an object it
// has stored, so they do not change under the watcher either.
type Event struct {
	Type EventType
	// Kind is the object's kind, e.g. "Installation".
	Kind string
	Old  Object
	New  Object
}

// WatchFunc receives every change, in the order the changes happened, before
// the write that caused it returns.
type WatchFunc func(Event)
