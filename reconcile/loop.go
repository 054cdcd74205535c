package reconcile

import (
	"context"
	"fmt"
	"io"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/internal/crash"
)

// Loop runs reconcilers one at a time over a queue of work, on a virtual
// clock: it takes ready work in an order drawn from the seeded random source,
// and when none is ready it moves the clock to the next timer. It has no
// goroutines and never reads the wall clock.
//
// A reconciler's result decides what happens next for its object: an error
// repeats the call with growing intervals (see RetryInterval), RequeueAfter
// sets a timer, and a zero Result waits for the next change (Enqueue).
type Loop struct {
	clock       *VirtualClock
	rand        *Random
	log         io.Writer
	queue       *queue
	reconcilers map[string]Reconciler
	// failures counts consecutive errors per item, for growing retry intervals.
	failures map[item]int
	// idle marks items whose last run changed nothing and asked only for a re-poll.
	idle map[item]bool
	// changes counts changes reported with Changed, so a step can tell
	// whether it wrote anything.
	changes uint64
}

// NewLoop returns a loop on clock that orders ready work with rnd. log, when
// not nil, receives one line per retried error.
func NewLoop(clock *VirtualClock, rnd *Random, log io.Writer) *Loop {
	if log == nil {
		log = io.Discard
	}
	return &Loop{clock: clock, rand: rnd, log: log, queue: newQueue(),
		reconcilers: map[string]Reconciler{}, failures: map[item]int{}, idle: map[item]bool{}}
}

// Register adds the reconciler r under the name controller.
func (l *Loop) Register(controller string, r Reconciler) { l.reconcilers[controller] = r }

// Registered reports whether a reconciler is registered under controller.
func (l *Loop) Registered(controller string) bool {
	_, ok := l.reconcilers[controller]
	return ok
}

// Enqueue asks controller to reconcile the object named key. Names that are
// not registered are ignored, so a watch can wake controllers that are
// switched off.
func (l *Loop) Enqueue(controller string, key types.NamespacedName) {
	if _, ok := l.reconcilers[controller]; ok {
		l.queue.Add(item{Controller: controller, Key: key})
	}
}

// Schedule asks controller to reconcile the object named key at the time
// at, unless a timer of that item is due earlier. The timer keeps a run
// going, as a deadline does (see Result.Deadline). Names that are not
// registered are ignored.
func (l *Loop) Schedule(controller string, key types.NamespacedName, at time.Time) {
	if _, ok := l.reconcilers[controller]; ok {
		l.queue.AddAt(item{Controller: controller, Key: key}, at, true, false)
	}
}

// Changed tells the loop that an object changed. A step that changed nothing
// and only asked for a re-poll is idle; a run whose only timers are idle
// re-polls has reached its fixed point.
func (l *Loop) Changed() { l.changes++ }

// step runs one item and schedules what it asks for. The result of the newest
// reconcile replaces any timer the item had: a level-triggered controller that
// looked at the object now knows best when it must look again. A panic, or an
// error carrying a recovered one (*crash.Error), stops the run: step returns
// it, naming the object: as the code that called the component that panicked
// named it, else by controller and key.
func (l *Loop) step(ctx context.Context, it item) error {
	l.queue.Cancel(it)
	before := l.changes
	res, err := l.reconcile(ctx, it)
	if ce := crash.As(err); ce != nil {
		if ce.Object == "" {
			ce.Object = fmt.Sprintf("%s controller, %s", it.Controller, it.Key)
		}
		return ce
	}
	wrote := l.changes != before
	if wrote {
		clear(l.idle)
	}
	now := l.clock.Now()
	switch {
	case err != nil:
		n := l.failures[it]
		l.failures[it] = n + 1
		l.idle[it] = !wrote
		l.queue.AddAt(it, now.Add(RetryInterval(n)), false, false)
		fmt.Fprintf(l.log, "%s %s %s: retry: %v\n", now.Format(time.RFC3339), it.Controller, it.Key, err)
	case res.RequeueAfter > 0:
		delete(l.failures, it)
		l.idle[it] = !wrote && !res.Deadline && !res.Scheduled
		l.queue.AddAt(it, now.Add(res.RequeueAfter), res.Deadline, res.Scheduled)
	default:
		delete(l.failures, it)
		delete(l.idle, it)
	}
	return nil
}

// reconcile calls the reconciler of it, turning a panic into a *crash.Error
// of lscli itself: third-party code recovers its own panics where lscli calls it.
func (l *Loop) reconcile(ctx context.Context, it item) (res Result, err error) {
	defer crash.Recover(crash.Own, &err)
	return l.reconcilers[it.Controller].Reconcile(ctx, it.Key)
}

// RetryInterval is the wait before the retry after the given number of
// consecutive failures. It grows like client-go's default controller rate
// limiter: 5ms doubling per failure, at most 1000s.
func RetryInterval(failures int) time.Duration {
	d := 5 * time.Millisecond
	for i := 0; i < failures && d < 1000*time.Second; i++ {
		d *= 2
	}
	return min(d, 1000*time.Second)
}
