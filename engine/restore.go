package engine

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// Snapshot returns what a later command needs to go on: objects, clock,
// random source, timers (ready work is saved as due now) and the timeline.
func (e *Engine) Snapshot(seed uint64) (*Snapshot, error) {
	rnd, err := e.cfg.Rand.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("save random source: %w", err)
	}
	now := e.cfg.Clock.Now()
	snap := &Snapshot{Seed: seed, Rand: rnd, Clock: now, Events: e.events, Objects: e.cfg.Cluster.Objects()}
	for _, it := range e.queue.ready {
		snap.Timers = append(snap.Timers, Timer{Controller: it.Controller, Namespace: it.Key.Namespace, Name: it.Key.Name, Due: now, Deadline: true})
	}
	for _, t := range e.queue.Timers() {
		snap.Timers = append(snap.Timers, Timer{Controller: t.it.Controller, Namespace: t.it.Key.Namespace,
			Name: t.it.Key.Name, Due: t.due, Deadline: t.deadline})
	}
	return snap, nil
}

// RestoreTimeline loads the saved timers and timeline of snap into e. Call it
// on an engine built from the Config that NewConfig returned for the same snap.
func (e *Engine) RestoreTimeline(snap *Snapshot) {
	if snap == nil {
		return
	}
	e.events = append([]Event(nil), snap.Events...)
	for _, t := range snap.Timers {
		it := item{Controller: t.Controller, Key: types.NamespacedName{Namespace: t.Namespace, Name: t.Name}}
		e.queue.AddAt(it, t.Due, t.Deadline)
	}
}

// NewConfig returns a Config with the clock, random source and cluster that go
// on where snap ended. A nil snap starts a new simulation at start with seed.
// reseed, when true, re-seeds the random source with seed even if snap has one
// (the user asked for --seed explicitly).
func NewConfig(snap *Snapshot, seed uint64, reseed bool, start time.Time) (Config, error) {
	var cfg Config
	cfg.Clock = NewVirtualClock(start)
	cfg.Rand = NewRandom(seed)
	if snap != nil {
		cfg.Clock = NewVirtualClock(snap.Clock)
		if !reseed {
			rnd, err := RestoreRandom(snap.Rand)
			if err != nil {
				return cfg, err
			}
			cfg.Rand = rnd
		}
	}
	cfg.Cluster = fakecluster.New(fakecluster.Options{Now: cfg.Clock.Now, Rand: cfg.Rand.Rand})
	if snap != nil {
		if err := cfg.Cluster.Restore(snap.Objects); err != nil {
			return cfg, fmt.Errorf("restore objects: %w", err)
		}
	}
	return cfg, nil
}
