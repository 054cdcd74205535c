package engine

import (
	"io"
	"time"

	"github.com/lscli/lscli/engine/deployitem"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/template/funcs"
	"github.com/lscli/lscli/reconcile"
)

// Controller names, as they appear in saved timers.
const (
	InstallationController = "installation"
	ExecutionController    = "execution"
	DeployItemController   = "deployitem"
	DeployerController     = "deployer"
)

// Timeouts are the landscaper-side deploy item timeouts.
type Timeouts struct {
	// Pickup is how long a deploy item may wait for a deployer to pick it up.
	// Zero means the default of 5 minutes; negative disables the check ("none").
	Pickup time.Duration
}

// DefaultPickupTimeout is Landscaper's default deployItemTimeouts.pickup.
const DefaultPickupTimeout = deployitem.DefaultPickupTimeout

// Config injects the dependencies that all engine actions share.
type Config struct {
	// Cluster is the in-memory API server. Required.
	Cluster *fakecluster.Cluster
	// Clock is the virtual clock. Nil means a new clock at DefaultStartTime.
	Clock *reconcile.VirtualClock
	// Rand is the seeded random source of the order of ready work. Nil means
	// NewRandom(DefaultSeed).
	Rand *reconcile.Random
	// IDs derives job IDs (and, in Cluster, uids and generated names) from
	// the seed and each object's identity. The zero value uses seed 0.
	IDs ids.Source
	// Deployer runs the deployer side of the contract for deploy items (see
	// package deployers). Nil means no deployer serves any type.
	Deployer reconcile.Reconciler
	// Timeouts are the landscaper-side timeouts. Zero values mean defaults.
	Timeouts Timeouts
	// Log receives one line per retried error when set. Nil discards.
	Log io.Writer
	// Blueprints resolves spec.blueprint.ref.resourceName to blueprints kept
	// outside the installation (e.g. local folders from the config file).
	// Nil means only inline blueprints are found.
	Blueprints blueprint.Resolver
	// Limits bound the templates the run renders; zero fields mean the
	// defaults.
	Limits limits.Limits
	// RemovedShoots are the Gardener shoot clusters ("<namespace>/<name>")
	// that no longer exist, for onDelete.skipUninstallIfClusterRemoved: a
	// stand-in for the garden cluster. All others exist.
	RemovedShoots []string
	// Components finds component versions (spec.componentDescriptor). Nil
	// finds only inline component descriptors.
	Components *components.Registry
	// Clusters are the clusters behind Targets that the templates' cluster
	// kubeconfig functions ask (getServiceAccountKubeconfig,
	// getShootAdminKubeconfig): the deployers' clusters. Nil: those
	// functions fail, as in a dry run.
	Clusters funcs.ClusterClients
}

// shoots answers the execution controller's question whether a shoot exists.
type shoots map[string]bool

// ShootExists is false for the removed shoots.
func (s shoots) ShootExists(namespace, name string) bool { return !s[namespace+"/"+name] }

func (c *Config) defaults() {
	if c.Clock == nil {
		c.Clock = reconcile.NewVirtualClock(reconcile.DefaultStartTime)
	}
	if c.Rand == nil {
		c.Rand = reconcile.NewRandom(reconcile.DefaultSeed)
	}
	if c.Timeouts.Pickup == 0 {
		c.Timeouts.Pickup = DefaultPickupTimeout
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}
