package action

import (
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/state"
)

// reading is the hold of a reading action (get, tree, events, describe) on
// the saved simulation: a state.View, which decodes only what the action
// shows, or, for a state file the View cannot read, the session of the
// whole simulation. Both give the same objects and events.
type reading struct {
	view *state.View
	ss   *session
}

// openReading reads the saved simulation under the shared lock, which it
// releases once the file is read; the objects only when withObjects is true
// (events alone need no objects). Where there is none it creates nothing
// and returns a NoStateError.
func openReading(cfg *Configuration, withObjects bool) (*reading, error) {
	dir := state.New(cfg.StatePath)
	ok, err := dir.Exists()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &NoStateError{Path: statePath(cfg)}
	}
	unlock, err := dir.LockWith(state.LockOptions{Shared: true, Timeout: cfg.LockTimeout, Waiting: cfg.OnLockWait})
	if err != nil {
		return nil, err
	}
	view, ok, err := dir.OpenView(fakecluster.NewScheme(), withObjects)
	_ = unlock()
	switch {
	case err != nil:
		return nil, err
	case ok:
		return &reading{view: view}, nil
	}
	ss, err := openExisting(cfg, readState)
	if err != nil {
		return nil, err
	}
	return &reading{ss: ss}, nil
}

// close releases what the session holds, if there is one.
func (r *reading) close() {
	if r.ss != nil {
		r.ss.close()
	}
}

// objects returns the stored objects for which keep(kind, namespace, name)
// is true, in the API server's order.
func (r *reading) objects(keep func(kind, namespace, name string) bool) ([]fakecluster.Object, error) {
	if r.ss != nil {
		var out []fakecluster.Object
		for _, o := range r.ss.cluster().Objects() {
			if keep(o.GetObjectKind().GroupVersionKind().Kind, o.GetNamespace(), o.GetName()) {
				out = append(out, o)
			}
		}
		return out, nil
	}
	var at []int
	for i, h := range r.view.Headers() {
		if keep(h.Kind, h.Namespace, h.Name) {
			at = append(at, i)
		}
	}
	return r.view.Objects(at)
}

// all returns every stored object, in the API server's order.
func (r *reading) all() ([]fakecluster.Object, error) {
	if r.ss != nil {
		return r.ss.cluster().Objects(), nil
	}
	return r.view.AllObjects()
}

// subtree returns root and every object that it owns, directly or not, in
// the order of Subtree.
func (r *reading) subtree(root fakecluster.Object) ([]fakecluster.Object, error) {
	if r.ss != nil {
		return Subtree(r.ss.cluster().Objects(), root), nil
	}
	heads := r.view.Headers()
	owned, err := r.view.Objects(ownedBy(len(heads), func(i int) types.UID { return heads[i].UID },
		func(i int) []types.UID { return heads[i].Owners }, root.GetUID()))
	if err != nil {
		return nil, err
	}
	return append([]fakecluster.Object{root}, owned...), nil
}

// related returns, in the API server's order, the stored objects among
// which related (describe) finds those related to obj: from a View only
// those that may relate to it (see mayRelate), which related then finds as
// it finds them among all objects.
func (r *reading) related(obj fakecluster.Object) ([]fakecluster.Object, error) {
	if r.ss != nil {
		return r.ss.cluster().Objects(), nil
	}
	refs := namedRefs(obj)
	var at []int
	for i, h := range r.view.Headers() {
		if mayRelate(obj, refs, h.Kind, h.Namespace, h.Name, h.UID, h.Owners) {
			at = append(at, i)
		}
	}
	return r.view.Objects(at)
}

// events returns the timeline, oldest first.
func (r *reading) events() ([]state.Event, error) {
	if r.ss != nil {
		return r.ss.engine.Events(), nil
	}
	return r.view.Events()
}

// ownedBy returns the indexes of the items, 0 to n-1, that the item with
// root owns, directly or not: first those it owns, in item order, then
// those they own, and so on. uid and owners give an item's UID and the
// UIDs of its owner references.
func ownedBy(n int, uid func(int) types.UID, owners func(int) []types.UID, root types.UID) []int {
	byOwner := map[types.UID][]int{}
	for i := range n {
		for _, o := range owners(i) {
			byOwner[o] = append(byOwner[o], i)
		}
	}
	out := slices.Clone(byOwner[root])
	for i := 0; i < len(out); i++ {
		out = append(out, byOwner[uid(out[i])]...)
	}
	return out
}
