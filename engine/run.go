package engine

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
}

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
// in opts is reached.
func (e *Engine) Run(ctx context.Context, opts RunOptions) (RunResult, error) {
	res := RunResult{Start: e.cfg.Clock.Now()}
	pick := func(n int) int { return e.cfg.Rand.IntN(n) }
	for {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if opts.MaxSteps > 0 && res.Steps >= opts.MaxSteps {
			res.Reason = StopMaxSteps
			break
		}
		it, ok := e.queue.Pop(pick)
		if !ok {
			reason, stop := e.advance(res.Start, opts)
			if stop {
				res.Reason = reason
				break
			}
			continue
		}
		res.Steps++
		if err := e.step(ctx, it); err != nil {
			return res, err
		}
	}
	res.End = e.cfg.Clock.Now()
	return res, nil
}

// advance moves the clock to the next timer, or says why the run must stop.
func (e *Engine) advance(start time.Time, opts RunOptions) (StopReason, bool) {
	next, ok := e.queue.NextTimer()
	if !ok {
		return StopQuiet, true
	}
	if e.onlyIdleTimers() {
		return StopFixedPoint, true
	}
	if opts.Until > 0 && next.due.After(start.Add(opts.Until)) {
		e.cfg.Clock.Set(start.Add(opts.Until))
		return StopUntil, true
	}
	e.cfg.Clock.Set(next.due)
	e.queue.FireDue(e.cfg.Clock.Now())
	return "", false
}

// onlyIdleTimers reports whether every pending timer is a re-poll of an object
// whose last reconcile changed nothing, with no change since.
func (e *Engine) onlyIdleTimers() bool {
	for _, t := range e.queue.timers {
		if t.deadline || !e.idle[t.it] {
			return false
		}
	}
	return true
}
