package state

import (
	"encoding/json"
	"time"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// Snapshot is everything a later lscli command needs to go on with the
// simulation: the objects, the virtual clock, the random source, pending
// timers and the timeline.
type Snapshot struct {
	// Seed is the seed the random source was first created from.
	Seed uint64 `json:"seed"`
	// Rand is the marshalled state of the random source (ChaCha8).
	Rand []byte `json:"rand"`
	// Clock is the current virtual time.
	Clock time.Time `json:"clock"`
	// Timers are the pending wake-ups, ordered by due time.
	Timers []reconcile.Timer `json:"timers"`
	// Events is the timeline, oldest first.
	Events []Event `json:"events"`
	// Objects holds every stored object, sorted by kind, namespace and name.
	Objects []fakecluster.Object `json:"-"`
	// Clusters holds the objects of the simulated target clusters (package
	// deployers/simcluster), one element per object, sorted by cluster.
	Clusters []ClusterObject `json:"-"`
	// ComponentRoots are the landscape folders (absolute paths) in which
	// lscli found component versions, so that later commands without paths
	// find them again.
	ComponentRoots []string `json:"-"`
}

// ClusterObject is one object of a simulated target cluster, as the state
// keeps it. Package state does not look inside: package deployers/simcluster
// writes and reads these.
type ClusterObject struct {
	// Cluster names the cluster: the namespace/name of its Target.
	Cluster string `json:"cluster"`
	// Due, when set, is when the cluster's fake controllers act on the object
	// next (a simulated delay).
	Due *time.Time `json:"due,omitempty"`
	// Object is the object as JSON, with apiVersion and kind.
	Object json.RawMessage `json:"object"`
}
