package engine

import (
	"context"
	"io"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/blueprint"
	"github.com/lscli/lscli/fakecluster"
)

// Controller names, as they appear in saved timers.
const (
	InstallationController = "installation"
	ExecutionController    = "execution"
	DeployItemController   = "deployitem"
	DeployerController     = "deployer"
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
}

// Reconciler brings one object closer to what it should be. A nil error with a
// zero Result means done until the next change. A non-nil error means a normal
// error: the call is repeated with growing intervals. Reconcilers record
// terminal errors in the object's status (Failed) and return nil.
type Reconciler interface {
	Reconcile(ctx context.Context, key types.NamespacedName) (Result, error)
}

// ReconcilerFunc adapts a function to a Reconciler.
type ReconcilerFunc func(ctx context.Context, key types.NamespacedName) (Result, error)

// Reconcile calls f.
func (f ReconcilerFunc) Reconcile(ctx context.Context, key types.NamespacedName) (Result, error) {
	return f(ctx, key)
}

var _ Reconciler = ReconcilerFunc(nil)

// Timeouts are the landscaper-side deploy item timeouts.
type Timeouts struct {
	// Pickup is how long a deploy item may wait for a deployer to pick it up.
	// Zero means the default of 5 minutes; negative disables the check ("none").
	Pickup time.Duration
}

// DefaultPickupTimeout is Landscaper's default deployItemTimeouts.pickup.
const DefaultPickupTimeout = 5 * time.Minute

// Config injects the dependencies that all engine actions share.
type Config struct {
	// Cluster is the in-memory API server. Required.
	Cluster *fakecluster.Cluster
	// Clock is the virtual clock. Nil means a new clock at DefaultStartTime.
	Clock *VirtualClock
	// Rand is the seeded random source. Nil means NewRandom(DefaultSeed).
	Rand *Random
	// Deployer runs the deployer side of the contract for deploy items (see
	// package deployers). Nil means no deployer serves any type.
	Deployer Reconciler
	// Timeouts are the landscaper-side timeouts. Zero values mean defaults.
	Timeouts Timeouts
	// Log receives one line per reconcile step when set. Nil discards.
	Log io.Writer
	// Blueprints resolves spec.blueprint.ref.resourceName to blueprints kept
	// outside the installation (e.g. local folders from the config file).
	// Nil means only inline blueprints are found.
	Blueprints blueprint.Resolver

	// blueprints caches parsed inline blueprints by content (see blueprintFor).
	blueprints map[string]*blueprint.Blueprint
}

func (c *Config) defaults() {
	if c.blueprints == nil {
		c.blueprints = map[string]*blueprint.Blueprint{}
	}
	if c.Clock == nil {
		c.Clock = NewVirtualClock(DefaultStartTime)
	}
	if c.Rand == nil {
		c.Rand = NewRandom(DefaultSeed)
	}
	if c.Timeouts.Pickup == 0 {
		c.Timeouts.Pickup = DefaultPickupTimeout
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}
