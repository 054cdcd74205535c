package simcluster

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lscli/lscli/internal/builtintypes"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/state"
)

// KubernetesVersion is the version a simulated cluster reports by default
// (ServerVersion), e.g. to helm charts as .Capabilities.KubeVersion.
const KubernetesVersion = "v1.37.2"

// Options configure the simulated clusters.
type Options struct {
	// Now tells the virtual time. Required.
	Now func() time.Time
	// IDs derives uids, generated names and cluster IPs from the seed and
	// each object's identity. The zero value uses seed 0.
	IDs ids.Source
	// Rules decide how the fake controllers fill in status. Nil: every
	// object becomes ready at once.
	Rules Rules
	// Version is the Kubernetes version the clusters report. Empty means
	// KubernetesVersion.
	Version string
	// Seeds are the objects new clusters start with, besides the system
	// namespaces: each Seed's objects go into the clusters it selects.
	Seeds []Seed
	// Landscape is the simulation's own API server: it holds the Secrets
	// that Targets name in spec.secretRef and the Targets that copies are
	// made of (see Key), and it is the cluster of selfConfig Targets (see
	// self.go). Nil: Targets are told apart without it, and selfConfig
	// Targets share a simulated cluster of their own.
	Landscape *fakecluster.Cluster
}

// Clusters are the simulated clusters of one simulation, one per cluster
// that Targets reach (see Key). It
// implements deployer.ClusterClients. It and the clients it gives are safe
// for concurrent use: one lock serializes every call.
type Clusters struct {
	mu   sync.Mutex
	opts Options
	// minor is the minor release of opts.Version: the API versions the
	// clusters serve (see groupVersionSpans).
	minor    int
	scheme   *runtime.Scheme
	clusters map[string]*Cluster
	// saved are the restored objects of clusters not opened yet, by key.
	saved map[string][]state.ClusterObject
	// migrated is true once saved clusters were moved to the keys their
	// Targets have now (see migrate).
	migrated bool
	// changes counts the writes that changed a cluster (see Changes).
	changes atomic.Uint64
}

var (
	_ deployer.ClusterClients = (*Clusters)(nil)
	_ deployer.Forecaster     = (*Clusters)(nil)
	_ deployer.ChangeCounter  = (*Clusters)(nil)
)

// New returns an empty set of simulated clusters. Callers check
// opts.Version with CheckVersion; one it refuses serves the API versions of
// KubernetesVersion.
func New(opts Options) *Clusters {
	minor, err := minorOf(opts.Version)
	if err != nil {
		minor, _ = minorOf("")
	}
	return &Clusters{opts: opts, minor: minor, scheme: newScheme(), clusters: map[string]*Cluster{},
		saved: map[string][]state.ClusterObject{}}
}

// ErrNoTarget is returned by ForTarget for a deploy item without a Target.
var ErrNoTarget = errors.New("no target defined")

// ForTarget returns the client of the simulated cluster behind target,
// creating the cluster on first use.
func (cs *Clusters) ForTarget(ctx context.Context, target *lsv1alpha1.Target) (client.Client, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if target == nil {
		return nil, ErrNoTarget
	}
	c, err := cs.forTarget(ctx, target)
	if err != nil {
		return nil, err
	}
	return c.Client(), nil
}

// ClusterFor returns the cluster behind target, creating it (in memory: it
// is saved only if a deployer writes to it) when it never existed.
func (cs *Clusters) ClusterFor(ctx context.Context, target *lsv1alpha1.Target) (*Cluster, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.forTarget(ctx, target)
}

// forTarget opens the cluster behind target. The caller holds the lock.
func (cs *Clusters) forTarget(ctx context.Context, target *lsv1alpha1.Target) (*Cluster, error) {
	if err := cs.migrate(ctx); err != nil {
		return nil, err
	}
	key, err := Key(ctx, target, cs.reader())
	if err != nil {
		return nil, err
	}
	return cs.open(ctx, key)
}

// splitKey splits "namespace/name".
func splitKey(key string) (namespace, name string) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

// Cluster returns the cluster with key ("namespace/name" of its Target) if
// anything was ever applied to it.
func (cs *Clusters) Cluster(ctx context.Context, key string) (*Cluster, bool, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, ok := cs.clusters[key]; !ok {
		if _, ok := cs.saved[key]; !ok {
			return nil, false, nil
		}
	}
	c, err := cs.open(ctx, key)
	return c, err == nil, err
}

// Keys lists the keys of the clusters, sorted.
func (cs *Clusters) Keys() []string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.keys()
}

// keys is Keys for callers that hold the lock.
func (cs *Clusters) keys() []string {
	var keys []string
	for k := range cs.clusters {
		keys = append(keys, k)
	}
	for k := range cs.saved {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Changes counts the writes that changed any of the simulated clusters in
// this process (restoring them is no change).
func (cs *Clusters) Changes() uint64 { return cs.changes.Load() }

// ClusterOf returns the key of the simulated cluster behind target; ok is
// false when target is nil or its cluster cannot be named.
func (cs *Clusters) ClusterOf(target *lsv1alpha1.Target) (string, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if target == nil {
		return "", false
	}
	ctx := context.Background()
	if cs.migrate(ctx) != nil {
		return "", false
	}
	key, err := Key(ctx, target, cs.reader())
	return key, err == nil
}

// NextChange returns when the fake controllers of target's cluster act next
// by themselves (a rule's duration), if they will.
func (cs *Clusters) NextChange(target *lsv1alpha1.Target) (time.Time, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if target == nil {
		return time.Time{}, false
	}
	ctx := context.Background()
	if cs.migrate(ctx) != nil {
		return time.Time{}, false
	}
	key, err := Key(ctx, target, cs.reader())
	if err != nil {
		return time.Time{}, false
	}
	if _, ok := cs.clusters[key]; !ok {
		return earliestDue(cs.saved[key])
	}
	var next time.Time
	c := cs.clusters[key]
	for _, p := range c.pending {
		if next.IsZero() || p.due.Before(next) {
			next = p.due
		}
	}
	// A Job whose TTL has expired but that stays in the instant it
	// finished goes at whatever step comes next: no wake-up for it.
	now := cs.opts.Now()
	for _, t := range c.expiring {
		if t.After(now) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	return next, !next.IsZero()
}

// Unpredictable is false: a simulated cluster changes only when written to
// or as NextChange says.
func (cs *Clusters) Unpredictable(*lsv1alpha1.Target) bool { return false }

// earliestDue is the earliest due time among saved objects.
func earliestDue(objs []state.ClusterObject) (time.Time, bool) {
	var next time.Time
	for _, o := range objs {
		if o.Due != nil && (next.IsZero() || o.Due.Before(next)) {
			next = *o.Due
		}
	}
	return next, !next.IsZero()
}

// open returns the cluster with key, restoring or creating it.
func (cs *Clusters) open(ctx context.Context, key string) (*Cluster, error) {
	if c, ok := cs.clusters[key]; ok {
		return c, nil
	}
	c := newCluster(cs, key)
	if saved, ok := cs.saved[key]; ok {
		if err := c.restore(ctx, saved); err != nil {
			return nil, err
		}
		if err := c.upgrade(ctx); err != nil {
			return nil, err
		}
		delete(cs.saved, key)
	} else if err := c.bootstrap(ctx); err != nil {
		return nil, err
	}
	cs.clusters[key] = c
	return c, nil
}

// converter is the type converter of the field manager, built once (it
// parses the OpenAPI models of the built-in kinds): client-go's models, and
// deduced types for anything else, as the fake client uses by default.
var converter = sync.OnceValue(func() managedfields.TypeConverter {
	return multiConverter{builtinConverter(), managedfields.NewDeducedTypeConverter()}
})

// builtinConverter is the type converter of the built-in kinds, from their
// OpenAPI schemas, shared with the helm deployer.
var builtinConverter = builtintypes.Converter

// reader is Options.Landscape as a reader, nil when there is none.
func (cs *Clusters) reader() fakecluster.Reader {
	if cs.opts.Landscape == nil {
		return nil
	}
	return cs.opts.Landscape
}
