package reconcile

import (
	"context"
	"time"
)

// RunOptions bound a run. Zero values mean no bound.
type RunOptions struct {
	// Until stops the run once the virtual clock would advance more than this
	// far past the run's start.
	Until time.Duration
	// MaxSteps stops the run after this many reconcile steps.
	MaxSteps int
	// Progress, when set, is called every ProgressEvery steps with the
	// steps so far and the virtual time. It must not change the simulation;
	// the run is the same with or without it.
	Progress func(steps int, now time.Time)
}

// ProgressEvery is how many steps apart RunOptions.Progress is called.
const ProgressEvery = 64

// StopReason says why a run ended.
type StopReason string

// The reasons a run ends.
const (
	// StopQuiet: no work and no timers are left.
	StopQuiet StopReason = "quiet"
	// StopFixedPoint: only re-polls that change nothing are left.
	StopFixedPoint StopReason = "fixed-point"
	// StopUntil: the --until bound was reached.
	StopUntil StopReason = "until"
	// StopMaxSteps: the --max-steps bound was reached.
	StopMaxSteps StopReason = "max-steps"
	// StopScheduled: only scheduled work (automatic reconciles) is left,
	// beyond the --until bound if there is one.
	StopScheduled StopReason = "scheduled"
)

// RunResult describes a finished run.
type RunResult struct {
	Steps  int
	Start  time.Time
	End    time.Time
	Reason StopReason
}

// Run processes ready work, moving the virtual clock to the next timer when no
// work is ready, until nothing is left, only idle re-polls are left, or a bound
// in opts is reached. It returns early only when ctx is done or a reconciler
// panicked (the error is then a *crash.Error naming the object).
func (l *Loop) Run(ctx context.Context, opts RunOptions) (RunResult, error) {
	res := RunResult{Start: l.clock.Now()}
	pick := func(n int) int { return l.rand.IntN(n) }
	for {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if opts.MaxSteps > 0 && res.Steps >= opts.MaxSteps {
			res.Reason = StopMaxSteps
			break
		}
		it, ok := l.queue.Pop(pick)
		if !ok {
			reason, stop := l.advance(res.Start, opts)
			if stop {
				res.Reason = reason
				break
			}
			continue
		}
		res.Steps++
		if err := l.step(ctx, it); err != nil {
			res.End = l.clock.Now()
			return res, err
		}
		if opts.Progress != nil && res.Steps%ProgressEvery == 0 {
			opts.Progress(res.Steps, l.clock.Now())
		}
	}
	res.End = l.clock.Now()
	return res, nil
}

// advance moves the clock to the next timer, or says why the run must stop.
func (l *Loop) advance(start time.Time, opts RunOptions) (StopReason, bool) {
	next, ok := l.queue.NextTimer()
	if !ok {
		return StopQuiet, true
	}
	if idle, scheduledOnly := l.onlyIdleTimers(start, opts); idle {
		if scheduledOnly {
			return StopScheduled, true
		}
		return StopFixedPoint, true
	}
	if opts.Until > 0 && next.due.After(start.Add(opts.Until)) {
		l.clock.Set(start.Add(opts.Until))
		return StopUntil, true
	}
	l.clock.Set(next.due)
	l.queue.FireDue(l.clock.Now())
	return "", false
}

// onlyIdleTimers reports whether no pending timer keeps the run going: each
// is a re-poll of an object whose last reconcile changed nothing (with no
// change since), or scheduled work beyond opts.Until (any scheduled work
// without Until). scheduledOnly is true when all are scheduled.
func (l *Loop) onlyIdleTimers(start time.Time, opts RunOptions) (idle, scheduledOnly bool) {
	scheduledOnly = true
	for _, t := range l.queue.timers {
		switch {
		case t.scheduled:
			if opts.Until > 0 && !t.due.After(start.Add(opts.Until)) {
				return false, false
			}
		case t.deadline || !l.idle[t.it]:
			return false, false
		default:
			scheduledOnly = false
		}
	}
	return true, scheduledOnly
}

// Timer is a pending wake-up of a controller for one object, as the saved
// state keeps it.
type Timer struct {
	// Controller names the controller, e.g. "installation", "execution",
	// "deployitem" or "deployer".
	Controller string    `json:"controller"`
	Namespace  string    `json:"namespace"`
	Name       string    `json:"name"`
	Due        time.Time `json:"due"`
	// Deadline is true when the controller will act at Due (a timeout, a
	// simulated duration); false for a re-poll that changes nothing by itself.
	Deadline bool `json:"deadline,omitempty"`
	// Scheduled is true for planned work (an automatic reconcile) that does
	// not keep a run alive, see Result.Scheduled.
	Scheduled bool `json:"scheduled,omitempty"`
}

// Timers returns the pending work: ready work as deadlines due now, then the
// timers, earliest first.
func (l *Loop) Timers() []Timer {
	now := l.clock.Now()
	var out []Timer
	for _, it := range l.queue.ready {
		out = append(out, Timer{Controller: it.Controller, Namespace: it.Key.Namespace, Name: it.Key.Name, Due: now, Deadline: true})
	}
	for _, t := range l.queue.Timers() {
		out = append(out, Timer{Controller: t.it.Controller, Namespace: t.it.Key.Namespace,
			Name: t.it.Key.Name, Due: t.due, Deadline: t.deadline, Scheduled: t.scheduled})
	}
	return out
}

// RestoreTimers adds saved timers, as Timers returned them.
func (l *Loop) RestoreTimers(timers []Timer) {
	for _, t := range timers {
		it := item{Controller: t.Controller, Key: typesKey(t.Namespace, t.Name)}
		l.queue.AddAt(it, t.Due, t.Deadline, t.Scheduled)
	}
}
