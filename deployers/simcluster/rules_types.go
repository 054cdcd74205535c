package simcluster

// RuleConfig is one rule for the fake controllers of the simulated clusters,
// as written in the config file (simulatedCluster.rules). The first rule
// whose match selects an object decides how its status is filled; an object
// no rule selects becomes ready at once.
type RuleConfig struct {
	// Match selects objects. Every field that is set must match.
	Match MatchConfig `json:"match"`
	// Duration is how much virtual time passes after each change of the
	// object (create, or a new generation) before the fake controller fills
	// in its status, e.g. "2m". Default: at once.
	Duration string `json:"duration,omitempty"`
	// Fail, when set, makes the status show a failure with this message
	// instead of readiness (e.g. a Deployment whose rollout exceeded its
	// progress deadline, a failed Pod or Job).
	Fail string `json:"fail,omitempty"`
	// Hang keeps the fake controller away: the status is never filled in and
	// the object never becomes ready.
	Hang bool `json:"hang,omitempty"`
}

// MatchConfig selects objects of the simulated clusters. Patterns are globs:
// '*' matches any run of characters, '?' one character.
type MatchConfig struct {
	// Cluster matches the key of the cluster: the server of the Targets'
	// kubeconfig (e.g. "https://prod.example:6443"), "self" for the
	// simulation's own cluster, or "namespace/name" of the Target of a
	// cluster that only one Target (and its copies) reaches.
	Cluster string `json:"cluster,omitempty"`
	// Target matches the Target of a cluster that only one Target (and its
	// copies) reaches, as "namespace/name" or as its name alone.
	Target string `json:"target,omitempty"`
	// APIVersion matches the object's apiVersion, e.g. "apps/v1".
	APIVersion string `json:"apiVersion,omitempty"`
	// Kind matches the object's kind, e.g. "Deployment".
	Kind string `json:"kind,omitempty"`
	// Namespace matches the object's namespace ("" for cluster-scoped ones).
	Namespace string `json:"namespace,omitempty"`
	// Name matches the object's name.
	Name string `json:"name,omitempty"`
	// Labels is a label selector in kubectl syntax, e.g. "app=web,tier!=db".
	Labels string `json:"labels,omitempty"`
}
