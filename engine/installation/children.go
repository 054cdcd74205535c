package installation

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// child is a subinstallation or the execution of an installation.
type child struct {
	obj    fakecluster.Object
	kind   string
	status flow.JobStatus
}

// execLookup is how a phase finds the execution of an installation; each
// of Landscaper's phases has its way.
type execLookup bool

const (
	// byName finds the Execution named after the installation and
	// controlled by it, none when there is none (Landscaper's
	// GetExecutionForInstallation): Init, interrupt and the deletion phases.
	byName execLookup = false
	// byRef finds the Execution status.executionRef names: none without a
	// reference, an error when it is missing. ObjectsCreated and
	// Progressing.
	byRef execLookup = true
)

// childError is an error of reading or writing the children, with the
// reason Landscaper's phases give it (see phaseError).
type childError struct {
	reason string
	err    error
}

func (e *childError) Error() string { return e.err.Error() }
func (e *childError) Unwrap() error { return e.err }

// phaseError wraps err, an error of the children of inst, in the phase's
// operation op and Landscaper's reason for it.
func phaseError(err error, op string) error {
	if ce, ok := errors.AsType[*childError](err); ok {
		return reconcile.Wrap(ce.err, op, ce.reason)
	}
	return reconcile.Wrap(err, op, "ListSubinstallations")
}

// children returns the subinstallations (owned by inst) in Landscaper's
// order (see subinstallations) and then the execution of inst (byName), for
// the deletion phases.
func (c *Controller) children(ctx context.Context, inst *lsv1alpha1.Installation) ([]child, error) {
	return c.readChildren(ctx, inst, false, byName)
}

// childrenView is the children as Progressing finds them (the execution
// byRef), for reading only: the objects are the stored
// ones (fakecluster's Select and GetUnsafe), so nothing they reach may be
// changed. The Progressing phase looks at the children on every
// change of any of them; not copying them is most of what it costs.
//
// The view of the last call is kept while nothing is written (flow.ViewMemo):
// the idle check of a wake-up (waitsAsRecorded) and the pass that follows it
// look at the same children.
func (c *Controller) childrenView(ctx context.Context, inst *lsv1alpha1.Installation) ([]child, error) {
	return c.kids.Get(inst.UID, c.cfg.Cluster.ResourceVersion(), func() ([]child, error) {
		return c.readChildren(ctx, inst, true, byRef)
	})
}

func (c *Controller) readChildren(ctx context.Context, inst *lsv1alpha1.Installation, view bool, lookup execLookup) ([]child, error) {
	subs, err := c.listSubinstallations(ctx, inst, inst.Status.SubInstCache, view)
	if err != nil {
		return nil, &childError{"ListSubinstallations", err}
	}
	out := make([]child, 0, len(subs)+1)
	for _, s := range subs {
		st, _ := flow.JobStatusOf(s)
		out = append(out, child{obj: s, kind: "Installation", status: st})
	}
	exec, err := c.getExecution(ctx, inst, view, lookup)
	if err != nil {
		return nil, err
	}
	if exec != nil {
		st, _ := flow.JobStatusOf(exec)
		out = append(out, child{obj: exec, kind: "Execution", status: st})
	}
	return out, nil
}

// subinstallations returns the subinstallations of inst as Landscaper's
// ListSubinstallations finds them with status.subInstCache: found through
// the owner index; with the cache, only those it names, the orphans and
// then the active ones in template order; without it, all, by name.
func (c *Controller) subinstallations(ctx context.Context, inst *lsv1alpha1.Installation) ([]*lsv1alpha1.Installation, error) {
	return c.listSubinstallations(ctx, inst, inst.Status.SubInstCache, false)
}

// listSubinstallations is subinstallations through cache; view gives
// read-only objects (see childrenView).
func (c *Controller) listSubinstallations(ctx context.Context, inst *lsv1alpha1.Installation, cache *lsv1alpha1.SubInstCache, view bool) ([]*lsv1alpha1.Installation, error) {
	opts := fakecluster.ListOptions{Namespace: inst.Namespace, OwnerUID: inst.UID}
	out, err := fakecluster.Select[*lsv1alpha1.Installation](ctx, c.cfg.Cluster, &lsv1alpha1.InstallationList{}, opts, view)
	if err != nil {
		return nil, fmt.Errorf("list subinstallations: %w", err)
	}
	named := orderByCache(out, cache)
	if cache != nil {
		out = out[:named] // those the cache does not name are last
	}
	return out, nil
}

// orderByCache sorts subs by their place in cache (orphans first, then the
// active ones), those not in it last, by name, and returns how many the
// cache names. Each sub's place is looked up once, not at every comparison:
// a parent of many subinstallations orders them at every wake-up.
func orderByCache(subs []*lsv1alpha1.Installation, cache *lsv1alpha1.SubInstCache) (named int) {
	var pos map[string]int
	if cache != nil {
		pos = make(map[string]int, len(cache.OrphanedSubs)+len(cache.ActiveSubs))
		for _, n := range cache.OrphanedSubs {
			pos[n] = len(pos)
		}
		for _, p := range cache.ActiveSubs {
			if _, ok := pos[p.ObjectName]; !ok {
				pos[p.ObjectName] = len(pos)
			}
		}
	}
	type placed struct {
		place int // after every place in cache for a sub not in it
		sub   *lsv1alpha1.Installation
	}
	ps := make([]placed, len(subs))
	for i, s := range subs {
		p, ok := pos[s.Name]
		if ok {
			named++
		} else {
			p = math.MaxInt
		}
		ps[i] = placed{p, s}
	}
	slices.SortFunc(ps, func(a, b placed) int {
		if c := cmp.Compare(a.place, b.place); c != 0 {
			return c
		}
		return strings.Compare(a.sub.Name, b.sub.Name)
	})
	for i, p := range ps {
		subs[i] = p.sub
	}
	return named
}

// execution returns the execution of inst (byName), or nil if it has none.
func (c *Controller) execution(ctx context.Context, inst *lsv1alpha1.Installation) (*lsv1alpha1.Execution, error) {
	return c.getExecution(ctx, inst, false, byName)
}

// getExecution finds the execution of inst as lookup says; view gives a
// read-only object (see childrenView). Its errors are childErrors.
func (c *Controller) getExecution(ctx context.Context, inst *lsv1alpha1.Installation, view bool, lookup execLookup) (*lsv1alpha1.Execution, error) {
	exec := &lsv1alpha1.Execution{}
	key := types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}
	reason := "GetExecutionForInstallation"
	if lookup == byRef {
		ref := inst.Status.ExecutionReference
		if ref == nil {
			return nil, nil
		}
		key, reason = types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, "GetExecution"
	}
	var err error
	if view {
		err = c.cfg.Cluster.GetUnsafe(ctx, key, exec)
	} else {
		err = c.cfg.Cluster.Get(ctx, key, exec)
	}
	switch {
	case apierrors.IsNotFound(err) && lookup == byName:
		return nil, nil
	case err != nil:
		return nil, &childError{reason, err}
	case lookup == byName && !metav1.IsControlledBy(exec, inst):
		return nil, nil
	}
	return exec, nil
}

// triggerChildren passes the job ID of inst to all its children at once,
// with new transition times (triggerTime), in Landscaper's order: in
// ObjectsCreated the subinstallations and then the execution (byRef: a
// missing one is an error after the subinstallations got the job), while
// deleting the execution (byName) first. Its errors are childErrors.
func (c *Controller) triggerChildren(ctx context.Context, inst *lsv1alpha1.Installation, deleting bool) error {
	now := metav1.NewTime(c.cfg.Clock.Now())
	pass := func(obj fakecluster.Object, kind string) error {
		if st, _ := flow.JobStatusOf(obj); st.JobID == inst.Status.JobID {
			return nil
		}
		flow.SetJobID(obj, inst.Status.JobID, now)
		if err := c.cfg.Cluster.UpdateStatus(ctx, obj); err != nil {
			return &childError{"Update" + kind + "Status", fmt.Errorf("pass job to %s %s: %w", kind, obj.GetName(), err)}
		}
		return nil
	}
	passExec := func(lookup execLookup) error {
		exec, err := c.getExecution(ctx, inst, false, lookup)
		if err != nil || exec == nil {
			return err
		}
		return pass(exec, "Execution")
	}
	if deleting {
		if err := passExec(byName); err != nil {
			return err
		}
	}
	subs, err := c.subinstallations(ctx, inst)
	if err != nil {
		return &childError{"ListSubinstallations", err}
	}
	for _, s := range subs {
		if err := pass(s, "Installation"); err != nil {
			return err
		}
	}
	if deleting {
		return nil
	}
	return passExec(byRef)
}

// deletionOrder moves the execution of kids (children's order) to the
// front: Landscaper's deletion phases handle the execution first, then the
// subinstallations.
func deletionOrder(kids []child) {
	if n := len(kids); n > 1 && kids[n-1].kind == "Execution" {
		exec := kids[n-1]
		copy(kids[1:], kids[:n-1])
		kids[0] = exec
	}
}

// setOperationAndTouch sets the operation annotation op on obj, toggles its
// touch annotation and updates it: the update always changes the object, so
// its controller always hears of it, as in Landscaper.
func (c *Controller) setOperationAndTouch(ctx context.Context, obj fakecluster.Object, op lsv1alpha1.Operation) error {
	ann := map[string]string{}
	for k, v := range obj.GetAnnotations() {
		ann[k] = v
	}
	if op != "" {
		ann[lsv1alpha1.OperationAnnotation] = string(op)
	}
	if _, ok := ann[lsv1alpha1.TouchAnnotation]; ok {
		delete(ann, lsv1alpha1.TouchAnnotation)
	} else {
		ann[lsv1alpha1.TouchAnnotation] = "true"
	}
	obj.SetAnnotations(ann)
	return c.cfg.Cluster.Update(ctx, obj)
}
