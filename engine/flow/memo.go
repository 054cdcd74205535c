package flow

import "k8s.io/apimachinery/pkg/types"

// ViewMemo keeps the last read-only view a controller took of the objects
// around one object (an installation's children, an execution's deploy
// items) while the API server has not been written since. The run loop asks
// a reconciler's Idle and, when the object is not idle, reconciles it at
// once: that pass looks at the same objects Idle looked at, and takes the
// view Idle took instead of listing them again. A view holds the stored
// objects themselves, so it must only be read.
type ViewMemo[V any] struct {
	uid  types.UID
	rv   uint64
	view V
	ok   bool
}

// Get returns the view of the object uid taken by read, or the view kept
// when it was taken of the same object while the API server was at the same
// resourceVersion rv (see fakecluster.Cluster.ResourceVersion). A failed
// read is not kept.
func (m *ViewMemo[V]) Get(uid types.UID, rv uint64, read func() (V, error)) (V, error) {
	if m.ok && m.uid == uid && m.rv == rv {
		return m.view, nil
	}
	v, err := read()
	if err != nil {
		m.ok = false
		return v, err
	}
	m.uid, m.rv, m.view, m.ok = uid, rv, v, true
	return v, nil
}

// StartMemo carries what an object's status held when its job started (the
// cache of the job before, which the start clears) to the Init that follows
// in the same pass, as Landscaper's controllers keep it in a local variable
// from the start of a job to its Init. It holds one object's value: the
// next start, of any object, replaces it, and Take forgets it.
type StartMemo[V any] struct {
	uid   types.UID
	value V
	ok    bool
}

// Keep holds value for the object uid.
func (m *StartMemo[V]) Keep(uid types.UID, value V) {
	*m = StartMemo[V]{uid: uid, value: value, ok: true}
}

// Forget drops what is held.
func (m *StartMemo[V]) Forget() { *m = StartMemo[V]{} }

// Take returns what is held for the object uid and forgets it; ok is false
// when nothing is held for uid (then nothing is kept either).
func (m *StartMemo[V]) Take(uid types.UID) (value V, ok bool) {
	held := *m
	m.Forget()
	if held.ok && held.uid == uid {
		return held.value, true
	}
	return value, false
}
