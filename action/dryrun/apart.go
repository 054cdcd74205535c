package dryrun

import (
	"context"
	"strconv"
	"sync/atomic"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/parallel"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// minApart is the fewest roots renderApart renders on more than one core:
// below it, forking the cluster costs more than it saves.
const minApart = 16

// renderApart renders the roots of one namespace on all cores, when none
// of them exports at the namespace level, so that none imports what
// another writes: each worker renders roots, one after the other, on a
// Fork of the dry run's cluster. It then takes the results over in the
// order renderInOrder renders the roots, each root's objects with the
// resourceVersions renderInOrder would have given them, so that the result
// is the same, byte for byte. ok is false, and nothing has changed, when a
// root exports, when two roots wrote the same object, or when a render
// deleted one: renderInOrder renders the roots then. Without takeOver the
// objects stay on the forks (nothing will read them) and only the
// resourceVersion counter moves on as the take-over would move it.
func (w *walker) renderApart(ctx context.Context, insts []*lsv1alpha1.Installation, takeOver bool) ([]*Installation, bool) {
	workers := w.r.Workers
	if workers == 0 {
		workers = parallel.Workers()
	}
	if workers < 2 || len(insts) < minApart {
		return nil, false
	}
	ordered, err := dataflow.Order(insts)
	if err != nil {
		return nil, false
	}
	for _, inst := range ordered {
		if len(inst.Spec.Exports.Data) > 0 || len(inst.Spec.Exports.Targets) > 0 {
			return nil, false
		}
	}
	renders := make([]apartRender, len(ordered))
	var next atomic.Int64
	parallel.Go(workers, func(int) {
		fork := w.c.Fork()
		var current *apartRender
		fork.Watch(func(ev fakecluster.Event) { current.record(ev) })
		for i := int(next.Add(1) - 1); i < len(ordered); i = int(next.Add(1) - 1) {
			current = &renders[i]
			current.warned = &reconcile.Warnings{}
			sub := &walker{r: w.r, blueprints: w.blueprints, c: fork, ids: w.ids, res: &current.res}
			current.start = fork.ResourceVersion()
			// Each render warns apart, and the warnings are taken over
			// in order below, as renderInOrder would have found them.
			current.node = sub.render(reconcile.WithWarnings(ctx, current.warned), ordered[i], displayName(ordered[i]))
			current.end = fork.ResourceVersion()
		}
	})
	if !apartHold(renders) {
		return nil, false
	}
	w.r.rendersApart++
	nodes := make([]*Installation, len(renders))
	for i := range renders {
		r := &renders[i]
		shift := w.c.ResourceVersion() - r.start
		if !takeOver {
			_ = w.c.Adopt(nil, r.end+shift) // no objects: nothing can fail
		} else if err := w.c.Adopt(r.shifted(shift), r.end+shift); err != nil {
			w.problem(err) // the fork stored them, so the kinds are known
		}
		shiftNodes(r.node, r.start, shift)
		w.res.Problems = append(w.res.Problems, r.res.Problems...)
		w.res.Warnings = append(w.res.Warnings, r.res.Warnings...)
		reconcile.WarningsOf(ctx).Merge(r.warned)
		nodes[i] = r.node
	}
	return nodes, true
}

// shifted returns the objects the render wrote, in the order first
// written, with the resourceVersions it gave shifted by shift (see
// shiftRV). The fork stored them, and nothing else holds them: the fork is
// dropped after the take-over.
func (r *apartRender) shifted(shift uint64) []fakecluster.Object {
	objs := make([]fakecluster.Object, 0, len(r.order))
	for _, k := range r.order {
		obj := r.last[k]
		obj.SetResourceVersion(shiftRV(obj.GetResourceVersion(), r.start, shift))
		objs = append(objs, obj)
	}
	return objs
}

// apartRender is the render of one root on a fork: its result, the fork's
// resourceVersion before and after it, and the objects it wrote.
type apartRender struct {
	node       *Installation
	res        Result
	warned     *reconcile.Warnings
	start, end uint64
	// last holds each object the render wrote as it was last written;
	// order has their keys in the order first written.
	last    map[objectKey]fakecluster.Object
	order   []objectKey
	deleted bool
}

// objectKey names a stored object.
type objectKey struct {
	group, kind, namespace, name string
}

// record notes a write of the render.
func (r *apartRender) record(ev fakecluster.Event) {
	if ev.Type == fakecluster.Deleted {
		r.deleted = true
		return
	}
	gvk := ev.New.GetObjectKind().GroupVersionKind()
	k := objectKey{gvk.Group, gvk.Kind, ev.New.GetNamespace(), ev.New.GetName()}
	if r.last == nil {
		r.last = map[objectKey]fakecluster.Object{}
	}
	if _, seen := r.last[k]; !seen {
		r.order = append(r.order, k)
	}
	r.last[k] = ev.New
}

// apartHold reports whether the renders were independent: none deleted
// an object, and no two wrote the same one.
func apartHold(renders []apartRender) bool {
	writer := map[objectKey]int{}
	for i, r := range renders {
		if r.deleted {
			return false
		}
		for _, k := range r.order {
			if j, ok := writer[k]; ok && j != i {
				return false
			}
			writer[k] = i
		}
	}
	return true
}

// shiftRV adds shift to the resourceVersion rv when it is one the render
// gave, above start.
func shiftRV(rv string, start, shift uint64) string {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil || n <= start {
		return rv
	}
	return strconv.FormatUint(n+shift, 10)
}

// shiftNodes shifts the resourceVersions the render gave to the
// installations of node's tree (see shiftRV).
func shiftNodes(node *Installation, start, shift uint64) {
	if node == nil {
		return
	}
	if node.Object != nil {
		node.Object.ResourceVersion = shiftRV(node.Object.ResourceVersion, start, shift)
	}
	for _, sub := range node.Subinstallations {
		shiftNodes(sub, start, shift)
	}
}
