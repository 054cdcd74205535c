package action

import (
	"io"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/internal/safefs"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/reconcile"
)

// Configuration injects what all actions share: where the state is, how a new
// simulation starts, and how deploy items are served. The command line
// builds it from flags, LSCLI_* variables and the config file.
type Configuration struct {
	// StatePath is the state folder. Required.
	StatePath string
	// ConfigFile is the config file the settings come from, an absolute
	// path; empty when there is none. A saved state remembers it (see
	// state.Snapshot.ConfigFile).
	ConfigFile string
	// Seed seeds the random source of a new simulation.
	Seed uint64
	// Reseed re-seeds the random source of a saved simulation with Seed (the
	// user gave a seed explicitly).
	Reseed bool
	// StartTime is the virtual time a new simulation starts at. Zero means
	// reconcile.DefaultStartTime.
	StartTime time.Time
	// PickupTimeout is Landscaper's deploy item pickup timeout. Zero means
	// the default (5m); negative means none.
	PickupTimeout time.Duration
	// Deployers says how deploy items are served.
	Deployers DeployerSettings
	// Blueprints resolves spec.blueprint.ref.resourceName. Nil means only
	// inline blueprints are found.
	Blueprints blueprint.Resolver
	// Charts maps the helm charts Landscaper would download to local paths.
	Charts map[string]string
	// RemovedShoots are the Gardener shoot clusters ("<namespace>/<name>")
	// that no longer exist, for onDelete.skipUninstallIfClusterRemoved. All
	// others exist.
	RemovedShoots []string
	// Components says where component versions are found besides the
	// landscape folders (the config file's components, artifacts and
	// local-registry-root; Charts is copied in).
	Components components.Config
	// Version is lscli's version, reported as the deployers' version.
	Version string
	// Reads says where on the host lscli may read the landscape's files:
	// blueprints, templates, schemas and charts (see package safefs). The
	// paths of the landscape an action is given are added to it. Nil means
	// below the working directory and those paths, with the default size
	// limit.
	Reads *safefs.Policy
	// Stdin is what a landscape path "-" reads (landscape.StdinPath): YAML
	// documents, as kubectl apply -f - takes them. Nil makes "-" invalid
	// input.
	Stdin io.Reader
	// Limits bound what the landscape may cost: file sizes, YAML aliases,
	// template work and output. Zero fields mean the defaults.
	Limits limits.Limits
	// LockTimeout is how long an action waits for another lscli to release
	// the state's lock. Zero means: do not wait.
	LockTimeout time.Duration
	// OnLockWait, when set, is called once when an action starts waiting
	// for the lock, with the lock file's path.
	OnLockWait func(lock string)
	// Progress, when set, hears how far a run is, every few steps (see
	// Progress). It does not change the run. Nil means no reports.
	Progress func(Progress)
	// StoredObjects makes the actions that run the simulation return the
	// saved objects as the state file stores them (Run.Stored), read back
	// under the lock, instead of as objects (Run.Objects): for printing
	// them as JSON (output.ListStored), it saves encoding every object a
	// second time.
	StoredObjects bool
}

// DeployerSettings are how deploy items are served: modes by type, fault and
// timing rules, the simulated clusters and which Targets are real.
type DeployerSettings struct {
	// Modes are the chosen modes by type (--deployer, config deployers).
	Modes map[lsv1alpha1.DeployItemType]deployers.Mode
	// Rules are the compiled fake.rules.
	Rules deployers.Rules
	// ClusterRules are the compiled simulatedCluster.rules.
	ClusterRules simcluster.Rules
	// KubeVersion is simulatedCluster.kubernetesVersion; empty: the default.
	KubeVersion string
	// ClusterSeeds are the checked simulatedCluster.seeds.
	ClusterSeeds []simcluster.Seed
	// SeedFiles are the paths of the files of ClusterSeeds: a landscape
	// folder that holds one does not load it as landscape objects.
	SeedFiles []string
	// Targets choose the simulated or the real cluster per Target.
	Targets deployers.TargetModes
}

// reads returns Reads or its default, with paths added.
func (c *Configuration) reads(paths ...string) *safefs.Policy {
	if c.Reads == nil {
		return safefs.NewPolicy(c.Limits.FileSize, ".").With(paths...)
	}
	return c.Reads.With(paths...)
}

// RunOptions bound the simulation of an action that runs it.
type RunOptions = reconcile.RunOptions

func (c *Configuration) startTime() time.Time {
	if c.StartTime.IsZero() {
		return reconcile.DefaultStartTime
	}
	return c.StartTime
}
