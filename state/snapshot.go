package state

import (
	"encoding/json"
	"sort"
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
	// Events is the timeline, oldest first; Recorded goes on after it.
	Events []Event `json:"events"`
	// Recorded continues Events with the entries a run recorded, in the
	// blocks it recorded them in. Save writes them without joining them into
	// one slice: for a timeline of 350,000 entries that join allocated 48 MB
	// in one piece, and when the garbage collector was marking it made the
	// save pay for a share of the marking, up to a second.
	Recorded [][]Event `json:"-"`
	// Objects holds every stored object, sorted by kind, namespace and name.
	Objects []fakecluster.Object `json:"-"`
	// Clusters holds the objects of the simulated target clusters (package
	// deployers/simcluster), one element per object, sorted by cluster.
	Clusters []ClusterObject `json:"-"`
	// Applied are the configurations the last apply of each object applied
	// (see AppliedConfig), sorted by kind, namespace and name.
	Applied []AppliedConfig `json:"-"`
	// ComponentRoots are the landscape folders (absolute paths) in which
	// lscli found component versions, so that later commands without paths
	// find them again.
	ComponentRoots []string `json:"-"`
	// ConfigFile is the config file (an absolute path) of the command that
	// saved the state, empty when it read none, so that later commands
	// that find none of their own run with the same (see SavedConfigFile).
	ConfigFile string `json:"-"`
	// UnservedTypes are the deploy item types of stored DeployItems that no
	// deployer served in the command that saved the state (--deployer
	// TYPE=none), sorted: a later command in which a deployer serves one of
	// them starts as a deployer that comes up on a cluster does, by looking
	// at every deploy item of its type.
	UnservedTypes []string `json:"-"`
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

// eventIndex finds event i of a snapshot's timeline (Events, then the blocks
// of Recorded) without joining them; it may be used from several goroutines.
type eventIndex struct {
	head   []Event
	blocks [][]Event
	starts []int // the index of each block's first event
	n      int
}

// eventIndex returns the eventIndex of s's timeline.
func (s *Snapshot) eventIndex() eventIndex {
	x := eventIndex{head: s.Events, blocks: s.Recorded, starts: make([]int, len(s.Recorded)), n: len(s.Events)}
	for b, block := range s.Recorded {
		x.starts[b] = x.n
		x.n += len(block)
	}
	return x
}

// at returns event i, 0 <= i < n.
func (x eventIndex) at(i int) *Event {
	if i < len(x.head) {
		return &x.head[i]
	}
	b := sort.SearchInts(x.starts, i+1) - 1 // the last block that starts at or before i
	return &x.blocks[b][i-x.starts[b]]
}
