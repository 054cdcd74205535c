package reconcile_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

var key = types.NamespacedName{Namespace: "ns", Name: "x"}

func newLoop() (*reconcile.Loop, *reconcile.VirtualClock) {
	clock := reconcile.NewVirtualClock(reconcile.DefaultStartTime)
	return reconcile.NewLoop(clock, reconcile.NewRandom(1), nil), clock
}

// TestLoopStops covers each way a run ends.
func TestLoopStops(t *testing.T) {
	tests := []struct {
		name      string
		r         reconcile.Func
		opts      reconcile.RunOptions
		want      reconcile.StopReason
		wantSteps int
		wantTime  time.Duration
	}{
		{name: "done at once: quiet", want: reconcile.StopQuiet, wantSteps: 1,
			r: func(context.Context, types.NamespacedName) (reconcile.Result, error) { return reconcile.Result{}, nil }},
		{name: "a deadline moves the clock, then quiet", want: reconcile.StopQuiet, wantSteps: 2, wantTime: time.Minute,
			r: once(reconcile.Result{RequeueAfter: time.Minute, Deadline: true})},
		{name: "re-polls that change nothing: fixed point", want: reconcile.StopFixedPoint, wantSteps: 1,
			r: func(context.Context, types.NamespacedName) (reconcile.Result, error) {
				return reconcile.Result{RequeueAfter: 5 * time.Second}, nil
			}},
		{name: "until stops before the next timer", want: reconcile.StopUntil, wantSteps: 1, wantTime: 30 * time.Second,
			opts: reconcile.RunOptions{Until: 30 * time.Second},
			r: func(context.Context, types.NamespacedName) (reconcile.Result, error) {
				return reconcile.Result{RequeueAfter: time.Minute, Deadline: true}, nil
			}},
		{name: "only scheduled work: stop and leave it for later", want: reconcile.StopScheduled, wantSteps: 1,
			r: once(reconcile.Result{RequeueAfter: time.Hour, Scheduled: true})},
		{name: "scheduled work within --until runs", want: reconcile.StopQuiet, wantSteps: 2, wantTime: time.Hour,
			opts: reconcile.RunOptions{Until: 2 * time.Hour},
			r:    once(reconcile.Result{RequeueAfter: time.Hour, Scheduled: true})},
		{name: "scheduled work beyond --until: stop and leave it", want: reconcile.StopScheduled, wantSteps: 1,
			opts: reconcile.RunOptions{Until: 30 * time.Minute},
			r:    once(reconcile.Result{RequeueAfter: time.Hour, Scheduled: true})},
		{name: "max steps", want: reconcile.StopMaxSteps, wantSteps: 3, wantTime: 2 * time.Second, opts: reconcile.RunOptions{MaxSteps: 3},
			r: func(context.Context, types.NamespacedName) (reconcile.Result, error) {
				return reconcile.Result{RequeueAfter: time.Second, Deadline: true}, nil
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, clock := newLoop()
			l.Register("c", tt.r)
			l.Enqueue("c", key)
			res, err := l.Run(context.Background(), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reason != tt.want || res.Steps != tt.wantSteps {
				t.Errorf("stopped %s after %d steps, want %s after %d", res.Reason, res.Steps, tt.want, tt.wantSteps)
			}
			if got := clock.Now().Sub(reconcile.DefaultStartTime); got != tt.wantTime {
				t.Errorf("virtual time +%s, want +%s", got, tt.wantTime)
			}
		})
	}
}

// once returns res on the first call and a zero Result afterwards.
func once(res reconcile.Result) reconcile.Func {
	calls := 0
	return func(context.Context, types.NamespacedName) (reconcile.Result, error) {
		calls++
		if calls == 1 {
			return res, nil
		}
		return reconcile.Result{}, nil
	}
}

// TestLoopRetriesWithGrowingIntervals: errors repeat the call 5ms, 10ms,
// 20ms ... later; success ends the retries.
func TestLoopRetriesWithGrowingIntervals(t *testing.T) {
	l, clock := newLoop()
	var at []time.Duration
	l.Register("c", reconcile.Func(func(context.Context, types.NamespacedName) (reconcile.Result, error) {
		at = append(at, clock.Now().Sub(reconcile.DefaultStartTime))
		if len(at) < 4 {
			l.Changed() // a write, so the loop does not stop at a fixed point
			return reconcile.Result{}, errors.New("not yet")
		}
		return reconcile.Result{}, nil
	}))
	l.Enqueue("c", key)
	if _, err := l.Run(context.Background(), reconcile.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{0, 5 * time.Millisecond, 15 * time.Millisecond, 35 * time.Millisecond}
	if len(at) != len(want) {
		t.Fatalf("calls at %v, want %v", at, want)
	}
	for i := range want {
		if at[i] != want[i] {
			t.Errorf("call %d at +%s, want +%s", i, at[i], want[i])
		}
	}
	if got := reconcile.RetryInterval(100); got != 1000*time.Second {
		t.Errorf("RetryInterval(100) = %s, want the 1000s cap", got)
	}
}

// TestLoopTimersSurviveARestart: pending work saved with Timers and
// restored with RestoreTimers runs in the next loop.
func TestLoopTimersSurviveARestart(t *testing.T) {
	l, _ := newLoop()
	l.Register("c", reconcile.Func(func(context.Context, types.NamespacedName) (reconcile.Result, error) {
		return reconcile.Result{RequeueAfter: time.Hour, Deadline: true}, nil
	}))
	l.Enqueue("c", key)
	if _, err := l.Run(context.Background(), reconcile.RunOptions{MaxSteps: 1}); err != nil {
		t.Fatal(err)
	}
	timers := l.Timers()
	if len(timers) != 1 || timers[0].Due != reconcile.DefaultStartTime.Add(time.Hour) || !timers[0].Deadline {
		t.Fatalf("timers = %+v, want one deadline in an hour", timers)
	}
	next, _ := newLoop()
	ran := 0
	next.Register("c", reconcile.Func(func(context.Context, types.NamespacedName) (reconcile.Result, error) {
		ran++
		return reconcile.Result{}, nil
	}))
	next.RestoreTimers(timers)
	if _, err := next.Run(context.Background(), reconcile.RunOptions{}); err != nil || ran != 1 {
		t.Errorf("restored loop ran %d times (err %v), want once", ran, err)
	}
}

// TestAsReconciler: the adapter reads the object once and treats a missing
// object as done.
func TestAsReconciler(t *testing.T) {
	c := fakecluster.New(fakecluster.Options{})
	ctx := context.Background()
	if err := c.Create(ctx, &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "x"}}); err != nil {
		t.Fatal(err)
	}
	var seen []string
	r := reconcile.AsReconciler[*lsv1alpha1.Target](c, reconcile.ObjectFunc[*lsv1alpha1.Target](
		func(_ context.Context, tgt *lsv1alpha1.Target) (reconcile.Result, error) {
			seen = append(seen, tgt.Name)
			return reconcile.Result{RequeueAfter: time.Second}, nil
		}))
	if res, err := r.Reconcile(ctx, key); err != nil || res.RequeueAfter != time.Second {
		t.Errorf("existing object: %+v, %v", res, err)
	}
	if res, err := r.Reconcile(ctx, types.NamespacedName{Namespace: "ns", Name: "gone"}); err != nil || res != (reconcile.Result{}) {
		t.Errorf("missing object: %+v, %v; want done", res, err)
	}
	if len(seen) != 1 || seen[0] != "x" {
		t.Errorf("reconciled %v, want [x]", seen)
	}
}

// idleTargets reconciles Targets and is idle for those of type "idle".
type idleTargets struct {
	idle       []*lsv1alpha1.Target // the objects Idle was given
	reconciled []*lsv1alpha1.Target
	client     *fakecluster.Cluster
}

func (r *idleTargets) Idle(_ context.Context, tgt *lsv1alpha1.Target) bool {
	r.idle = append(r.idle, tgt)
	return tgt.Spec.Type == "idle" || tgt.Spec.Type == "wrongly-idle"
}

// Reconcile records tgt and changes it (the change is not written); one of
// type "wrongly-idle" it writes.
func (r *idleTargets) Reconcile(ctx context.Context, tgt *lsv1alpha1.Target) (reconcile.Result, error) {
	r.reconciled = append(r.reconciled, tgt)
	tgt.Labels = map[string]string{"changed": "by-the-reconciler"}
	if tgt.Spec.Type == "wrongly-idle" {
		return reconcile.Result{}, r.client.Update(ctx, tgt)
	}
	return reconcile.Result{}, nil
}

// TestAsReconcilerAsksIdlerFirst: an Idler is asked about the stored object
// itself, without a copy; an idle object is not reconciled, and one that is
// not is reconciled on a copy of its own, which the reconciler may change
// without changing what is stored.
func TestAsReconcilerAsksIdlerFirst(t *testing.T) {
	c := fakecluster.New(fakecluster.Options{})
	ctx := context.Background()
	for name, typ := range map[string]string{"quiet": "idle", "busy": "work"} {
		tgt := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}, Spec: lsv1alpha1.TargetSpec{Type: lsv1alpha1.TargetType(typ)}}
		if err := c.Create(ctx, tgt); err != nil {
			t.Fatal(err)
		}
	}
	r := &idleTargets{}
	adapter := reconcile.AsReconciler[*lsv1alpha1.Target](c, r)
	for _, name := range []string{"quiet", "busy", "gone"} {
		if res, err := adapter.Reconcile(ctx, types.NamespacedName{Namespace: "ns", Name: name}); err != nil || res != (reconcile.Result{}) {
			t.Fatalf("%s: %+v, %v", name, res, err)
		}
	}
	if len(r.idle) != 2 || len(r.reconciled) != 1 || r.reconciled[0].Name != "busy" {
		t.Fatalf("asked Idle about %d objects and reconciled %d; want 2 and busy", len(r.idle), len(r.reconciled))
	}
	stored := c.SharedObjects()
	if r.idle[0] != stored[0] && r.idle[0] != stored[1] {
		t.Error("Idle was given a copy, not the stored object")
	}
	if r.reconciled[0] == stored[0] || r.reconciled[0] == stored[1] {
		t.Fatal("Reconcile was given the stored object, not a copy")
	}
	got := &lsv1alpha1.Target{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "busy"}, got); err != nil || got.Labels != nil {
		t.Errorf("the reconciler's change reached the store: %v, %v", got.Labels, err)
	}
}

// TestVerifyIdleCatchesWork: with VerifyIdle, an idle verdict is checked by
// a full reconcile, which must write nothing; a reconciler whose Idle skips
// a write panics, naming the object.
func TestVerifyIdleCatchesWork(t *testing.T) {
	defer func(v bool) { reconcile.VerifyIdle = v }(reconcile.VerifyIdle)
	reconcile.VerifyIdle = true
	c := fakecluster.New(fakecluster.Options{})
	ctx := context.Background()
	for name, typ := range map[string]string{"quiet": "idle", "sly": "wrongly-idle"} {
		tgt := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}, Spec: lsv1alpha1.TargetSpec{Type: lsv1alpha1.TargetType(typ)}}
		if err := c.Create(ctx, tgt); err != nil {
			t.Fatal(err)
		}
	}
	r := &idleTargets{client: c}
	adapter := reconcile.AsReconciler[*lsv1alpha1.Target](c, r)
	if res, err := adapter.Reconcile(ctx, types.NamespacedName{Namespace: "ns", Name: "quiet"}); err != nil || res != (reconcile.Result{}) {
		t.Fatalf("quiet: %+v, %v", res, err)
	}
	if len(r.reconciled) != 1 {
		t.Fatalf("the idle verdict on quiet was checked by %d reconciles, want 1", len(r.reconciled))
	}
	defer func() {
		msg := fmt.Sprint(recover())
		if !strings.Contains(msg, "Target ns/sly is idle, but its reconcile wrote 1 times") {
			t.Errorf("panic %q, want one naming ns/sly and its write", msg)
		}
	}()
	adapter.Reconcile(ctx, types.NamespacedName{Namespace: "ns", Name: "sly"})
	t.Error("a wrong idle verdict went unnoticed")
}

// TestLastError follows Landscaper's rules: op, reason and message of the
// outermost Error, codes of the whole chain, and the times of UpdatedError.
func TestLastError(t *testing.T) {
	t0 := reconcile.DefaultStartTime
	inner := reconcile.NewError("NotCompletedDependents", "NotCompletedDependents", "depending on x", lsv1alpha1.ErrorForInfoOnly)
	err := reconcile.Fatal(reconcile.Wrap(inner, "init", "AllPredecessorsFinished"))
	first := reconcile.LastError(nil, err, "Init", "Init", t0)
	want := "Op: NotCompletedDependents - Reason: NotCompletedDependents - Message: depending on x"
	if first.Operation != "init" || first.Reason != "AllPredecessorsFinished" || first.Message != want ||
		len(first.Codes) != 1 || first.Codes[0] != lsv1alpha1.ErrorForInfoOnly {
		t.Errorf("lastError = %+v", first)
	}
	if again := reconcile.LastError(first, err, "Init", "Init", t0.Add(time.Minute)); again != first {
		t.Error("the same error again must keep the old lastError (no change, no progress)")
	}
	other := reconcile.LastError(first, reconcile.Wrap(errors.New("other"), "init", "ImportsSatisfied"), "Init", "Init", t0.Add(time.Minute))
	if !other.LastTransitionTime.Time.Equal(t0) || !other.LastUpdateTime.Time.Equal(t0.Add(time.Minute)) {
		t.Errorf("same operation: transition time kept, update time moved; got %+v", other)
	}
	plain := reconcile.LastError(first, reconcile.TerminalErrorf("BadThing", "bad %s", "thing"), "Init", "Init", t0.Add(time.Minute))
	if plain.Operation != "Init" || plain.Reason != "BadThing" || plain.Message != "bad thing" ||
		!plain.LastTransitionTime.Time.Equal(t0.Add(time.Minute)) {
		t.Errorf("lscli's own error: %+v", plain)
	}
	if reconcile.IsTerminal(errors.New("x")) || !reconcile.IsTerminal(errors.Join(errors.New("wrapped"), err)) {
		t.Error("IsTerminal must find a terminal error in the chain, and only there")
	}
	if !reconcile.IsUnrecoverable(reconcile.Wrap(reconcile.NewError("a", "b", "c", lsv1alpha1.ErrorTimeout), "x", "y")) ||
		reconcile.IsUnrecoverable(inner) {
		t.Error("IsUnrecoverable must look for the unrecoverable codes in the chain")
	}
}

// TestSetDeployItemError keeps the first error and the last five.
func TestSetDeployItemError(t *testing.T) {
	st := &lsv1alpha1.DeployItemStatus{}
	e := reconcile.UpdatedError(nil, "reconcile", "Reconcile", "boom", nil, reconcile.DefaultStartTime)
	for range 7 {
		reconcile.SetDeployItemError(st, e)
	}
	if st.FirstError != e || st.LastError != e || len(st.LastErrors) != 5 {
		t.Errorf("status = %+v", st)
	}
}

// TestLoopSchedule: a timer set from outside a reconcile keeps the run
// going (an idle re-poll does not), an earlier timer of the item wins, and a
// later one is moved up.
func TestLoopSchedule(t *testing.T) {
	l, clock := newLoop()
	var calls []time.Duration
	l.Register("c", reconcile.Func(func(context.Context, types.NamespacedName) (reconcile.Result, error) {
		calls = append(calls, clock.Now().Sub(reconcile.DefaultStartTime))
		if len(calls) == 1 {
			return reconcile.Result{RequeueAfter: time.Hour, Deadline: true}, nil
		}
		return reconcile.Result{}, nil
	}))
	l.Enqueue("c", key)
	if _, err := l.Run(context.Background(), reconcile.RunOptions{MaxSteps: 1}); err != nil {
		t.Fatal(err)
	}
	start := reconcile.DefaultStartTime
	l.Schedule("c", key, start.Add(10*time.Second))
	l.Schedule("c", key, start.Add(20*time.Second)) // later: the 10s timer stands
	l.Schedule("nobody", key, start.Add(time.Second))
	res, err := l.Run(context.Background(), reconcile.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{0, 10 * time.Second}
	if fmt.Sprint(calls) != fmt.Sprint(want) || res.Reason != reconcile.StopQuiet {
		t.Errorf("calls at %v, stopped %s; want %v, quiet", calls, res.Reason, want)
	}
}
