package realcluster

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// PollInterval is how often Poll asks a real cluster again.
const PollInterval = 100 * time.Millisecond

// Poll asks cond every PollInterval, in real time, until it is true, it
// fails, ctx is done or timeout has passed. Only a real cluster changes while
// lscli waits; code that talks to a simulated cluster must never call it: the
// simulated cluster changes only when the virtual clock moves, between calls.
func Poll(ctx context.Context, timeout time.Duration, cond func(context.Context) (bool, error)) error {
	return wait.PollUntilContextTimeout(ctx, PollInterval, timeout, true, cond)
}
