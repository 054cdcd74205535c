package engine

import (
	"fmt"
	"time"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/reconcile"
	"github.com/lscli/lscli/state"
)

// Snapshot returns what a later command needs to go on: the seed of the
// identifiers, objects, clock, random source, timers (ready work is saved as
// due now) and the timeline. The objects are the API server's own (see
// fakecluster.SharedObjects), which later writes replace but never change:
// nobody may change them.
func (e *Engine) Snapshot() (*state.Snapshot, error) {
	rnd, err := e.cfg.Rand.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("save random source: %w", err)
	}
	snap := &state.Snapshot{Seed: e.cfg.IDs.Seed(), Rand: rnd, Clock: e.cfg.Clock.Now(),
		Objects: e.cfg.Cluster.SharedObjects(), Timers: e.loop.Timers()}
	snap.Events, snap.Recorded = e.timeline.parts()
	return snap, nil
}

// RestoreTimeline loads the saved timers and timeline of snap into e. Call it
// on an engine built from the Config that NewConfig returned for the same snap.
// e takes snap.Events over: the caller must not change them afterwards.
// A timer of a controller e does not have (a file edited by hand) is a
// *TimerError, and e is left as it was.
func (e *Engine) RestoreTimeline(snap *state.Snapshot) error {
	if snap == nil {
		return nil
	}
	for i, t := range snap.Timers {
		if !e.loop.Registered(t.Controller) {
			return &TimerError{Index: i, Err: fmt.Errorf("unknown controller %q", t.Controller)}
		}
	}
	e.timeline = timeline{done: snap.Events}
	e.loop.RestoreTimers(snap.Timers)
	return nil
}

// TimerError is a saved timer the engine cannot take: Index is its place in
// Snapshot.Timers.
type TimerError struct {
	Index int
	Err   error
}

func (e *TimerError) Error() string { return fmt.Sprintf("timers[%d]: %v", e.Index, e.Err) }
func (e *TimerError) Unwrap() error { return e.Err }

// NewConfig returns a Config with the clock, random source, identifiers and
// cluster that go on where snap ended. A nil snap starts a new simulation at
// start with seed. reseed, when true, re-seeds the random source and the
// identifiers with seed even if snap has one (the user asked for --seed
// explicitly). The cluster takes snap.Objects over (see
// fakecluster.RestoreOwned).
func NewConfig(snap *state.Snapshot, seed uint64, reseed bool, start time.Time) (Config, error) {
	var cfg Config
	cfg.Clock = reconcile.NewVirtualClock(start)
	cfg.Rand = reconcile.NewRandom(seed)
	cfg.IDs = ids.NewSource(seed)
	if snap != nil {
		cfg.Clock = reconcile.NewVirtualClock(snap.Clock)
		if !reseed {
			cfg.IDs = ids.NewSource(snap.Seed)
			rnd, err := reconcile.RestoreRandom(snap.Rand)
			if err != nil {
				return cfg, err
			}
			cfg.Rand = rnd
		}
	}
	cfg.Cluster = fakecluster.New(fakecluster.Options{Now: cfg.Clock.Now, IDs: cfg.IDs})
	if snap != nil {
		if err := cfg.Cluster.RestoreOwned(snap.Objects); err != nil {
			return cfg, fmt.Errorf("restore objects: %w", err)
		}
	}
	return cfg, nil
}
