package reconcile

import (
	"context"
	"fmt"
	"reflect"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// Result tells the run loop when to call a reconciler again for the same object.
type Result struct {
	// RequeueAfter asks for another call after this much virtual time. Zero
	// means: only when a watched object changes.
	RequeueAfter time.Duration
	// Deadline is true when the reconciler will act at that time (a timeout
	// expires, a simulated duration ends). False means a re-poll that changes
	// nothing unless something else changed first; a run whose only pending
	// work is such polls has reached its fixed point.
	Deadline bool
	// Scheduled is true for work planned far ahead that must not keep a run
	// alive (an automatic reconcile of spec.automaticReconcile): a run stops
	// when only such timers (and idle re-polls) are left, unless RunOptions.Until
	// reaches them. Takes precedence over Deadline.
	Scheduled bool
}

// Reconciler brings one object closer to what it should be. A nil error with
// a zero Result means done until the next change. A non-nil error means a
// normal error: the call is repeated with growing intervals. Reconcilers
// record terminal errors (see TerminalError) in the object's status (Failed)
// and return nil.
type Reconciler interface {
	Reconcile(ctx context.Context, key types.NamespacedName) (Result, error)
}

// Func adapts a function to a Reconciler.
type Func func(ctx context.Context, key types.NamespacedName) (Result, error)

// Reconcile calls f.
func (f Func) Reconcile(ctx context.Context, key types.NamespacedName) (Result, error) {
	return f(ctx, key)
}

var _ Reconciler = Func(nil)

// ObjectReconciler reconciles an object that exists, already read from the
// API server. T is a pointer to an API type, e.g. *v1alpha1.Installation.
type ObjectReconciler[T fakecluster.Object] interface {
	Reconcile(ctx context.Context, obj T) (Result, error)
}

// ObjectFunc adapts a function to an ObjectReconciler.
type ObjectFunc[T fakecluster.Object] func(ctx context.Context, obj T) (Result, error)

// Reconcile calls f.
func (f ObjectFunc[T]) Reconcile(ctx context.Context, obj T) (Result, error) { return f(ctx, obj) }

// Idler is implemented by ObjectReconcilers that can tell from a read-only
// view of an object that reconciling it would change nothing and return a
// zero Result: most wake-ups of a big landscape are such no-ops (an owner
// woken by every change of its children). Idle must not change obj, and must
// be true only where Reconcile would return Result{}, nil without writing.
// Tests check that with VerifyIdle.
type Idler[T fakecluster.Object] interface {
	Idle(ctx context.Context, obj T) bool
}

// VerifyIdle makes every reconciler of AsReconciler check each idle verdict
// it acts on: it reconciles the object in full all the same and panics when
// that wrote anything (the API server's resourceVersion moved), failed or
// asked to be called again. The tests of the engine and the command line
// set it, so that an Idle that would skip real work fails them; a run with
// it gives the same output as one without, only slower.
var VerifyIdle bool

// ResourceVersioner is an API server that tells its current
// resourceVersion, which moves with every write (see VerifyIdle).
type ResourceVersioner interface {
	ResourceVersion() uint64
}

// SharedGetter hands out a stored object itself, without copying it (see
// fakecluster.Cluster.GetShared).
type SharedGetter interface {
	GetShared(ctx context.Context, key types.NamespacedName, like fakecluster.Object) (fakecluster.Object, error)
}

// AsReconciler returns a Reconciler that reads the object named by the key
// from c and passes it to r. An object that is gone is done: Result{} and no
// error, as a deleted object needs nothing more. Any other read error is a
// normal error, retried. When r is an Idler and c a SharedGetter, the
// stored object is first looked at as it is, without a copy, and an idle
// one is done without being read in full.
func AsReconciler[T fakecluster.Object](c fakecluster.Reader, r ObjectReconciler[T]) Reconciler {
	typ := reflect.TypeFor[T]()
	if typ.Kind() != reflect.Pointer {
		panic(fmt.Sprintf("reconcile.AsReconciler: %s is not a pointer type", typ)) // programmer error
	}
	idler, _ := r.(Idler[T])
	shared, _ := c.(SharedGetter)
	like := reflect.New(typ.Elem()).Interface().(T) // names the kind to GetShared; never read or written
	return Func(func(ctx context.Context, key types.NamespacedName) (Result, error) {
		if idler != nil && shared != nil {
			if stored, err := shared.GetShared(ctx, key, like); err == nil {
				if t, ok := stored.(T); ok && idler.Idle(ctx, t) {
					if VerifyIdle {
						verifyIdle(ctx, c, r, key, typ)
					}
					return Result{}, nil
				}
			}
		}
		obj := reflect.New(typ.Elem()).Interface().(T)
		if err := c.Get(ctx, key, obj); err != nil {
			if apierrors.IsNotFound(err) {
				return Result{}, nil
			}
			return Result{}, fmt.Errorf("get %s: %w", key, err)
		}
		return r.Reconcile(ctx, obj)
	})
}

// verifyIdle reconciles the object named key in full, as AsReconciler does
// when it is not idle, and panics if that did anything (see VerifyIdle).
func verifyIdle[T fakecluster.Object](ctx context.Context, c fakecluster.Reader, r ObjectReconciler[T], key types.NamespacedName, typ reflect.Type) {
	rv, ok := c.(ResourceVersioner)
	if !ok {
		return
	}
	before := rv.ResourceVersion()
	obj := reflect.New(typ.Elem()).Interface().(T)
	if err := c.Get(ctx, key, obj); err != nil {
		panic(fmt.Sprintf("reconcile.VerifyIdle: %s %s is idle but cannot be read: %v", typ.Elem().Name(), key, err))
	}
	res, err := r.Reconcile(ctx, obj)
	if after := rv.ResourceVersion(); after != before || err != nil || res != (Result{}) {
		panic(fmt.Sprintf("reconcile.VerifyIdle: %s %s is idle, but its reconcile wrote %d times, returned %+v and error %v",
			typ.Elem().Name(), key, after-before, res, err))
	}
}
