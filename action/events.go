package action

import (
	"context"

	"github.com/lscli/lscli/state"
)

// Events reads the timeline of the saved simulation and runs nothing:
// `lscli events`.
type Events struct {
	cfg *Configuration
	// Namespace narrows the events; empty means every namespace.
	Namespace string
}

// NewEvents returns the events action over cfg.
func NewEvents(cfg *Configuration) *Events { return &Events{cfg: cfg} }

// Run returns the timeline, oldest first.
func (a *Events) Run(_ context.Context) ([]state.Event, error) {
	ss, err := openSession(a.cfg, readState)
	if err != nil {
		return nil, err
	}
	defer ss.close()
	var events []state.Event
	for _, e := range ss.engine.Events() {
		if a.Namespace == "" || e.Namespace == a.Namespace {
			events = append(events, e)
		}
	}
	return events, nil
}
