package reconcile

import "time"

// DefaultStartTime is the instant virtual time starts at unless the user asks
// for another with --start-time.
var DefaultStartTime = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Clock tells the engine what time it is.
type Clock interface {
	Now() time.Time
}

// VirtualClock is the simulation's clock. It never moves by itself: the run
// loop sets it to the next timer when nothing else is runnable.
type VirtualClock struct {
	now time.Time
}

var _ Clock = (*VirtualClock)(nil)

// NewVirtualClock returns a clock that reads start until it is moved.
func NewVirtualClock(start time.Time) *VirtualClock {
	return &VirtualClock{now: start.UTC()}
}

// Now returns the current virtual time.
func (c *VirtualClock) Now() time.Time { return c.now }

// Set moves the clock to t. Moving it backwards is ignored, so time never
// runs backwards in the timeline.
func (c *VirtualClock) Set(t time.Time) {
	if t.After(c.now) {
		c.now = t.UTC()
	}
}
