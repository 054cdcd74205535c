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
