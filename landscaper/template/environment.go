package template

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"time"

	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

// Environment is all that templates see of the world outside their
// blueprint and bindings: the time, the seed of their random functions,
// the limits they run within and the clusters behind Targets. Nothing else
// of the process (its environment variables, the wall clock, the network,
// the host's files) reaches them.
type Environment struct {
	// Clock returns the current time: the simulation's virtual clock. Nil
	// means the fixed instant DefaultNow.
	Clock func() time.Time
	// Seed is the simulation's seed. Each execution's random functions are
	// seeded from it and the execution's identity (see SeedFor).
	Seed uint64
	// Limits bound each execution; zero fields mean the defaults.
	Limits limits.Limits
	// Clusters reach the clusters behind Targets, for the kubeconfig
	// functions that ask a cluster (getServiceAccountKubeconfig,
	// getShootAdminKubeconfig). Nil means there are none, as in a dry run:
	// those functions fail with funcs.ErrNoCluster.
	Clusters funcs.ClusterClients
}

// DefaultNow is the time of an Environment without a clock.
var DefaultNow = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Now returns the environment's time in UTC.
func (e Environment) Now() time.Time {
	if e.Clock == nil {
		return DefaultNow
	}
	return e.Clock().UTC()
}

// SeedFor derives the seed of the random functions of one execution from
// the simulation's seed and parts that identify the execution (installation,
// job, execution): sha256 of the seed and the parts, each part prefixed by
// its length. So the same seed gives the same values, and each execution
// its own.
func (e Environment) SeedFor(parts ...string) [32]byte {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], e.Seed)
	h.Write(b[:])
	for _, p := range parts {
		binary.LittleEndian.PutUint64(b[:], uint64(len(p)))
		h.Write(b[:])
		h.Write([]byte(p))
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// environmentKey is the context key of the Environment.
type environmentKey struct{}

// WithEnvironment returns ctx carrying env, for the template executions that
// code called with ctx runs: the engine puts its virtual clock and seed there
// before a run, the dry run its own.
func WithEnvironment(ctx context.Context, env Environment) context.Context {
	return context.WithValue(ctx, environmentKey{}, env)
}

// EnvironmentFrom returns the Environment of ctx, or the zero Environment
// (DefaultNow, seed 0, default limits) when it carries none.
func EnvironmentFrom(ctx context.Context) Environment {
	env, _ := ctx.Value(environmentKey{}).(Environment)
	return env
}
