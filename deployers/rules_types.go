package deployers

import "encoding/json"

// RuleConfig is one fault and timing rule for deploy items, as written in
// the config file (fake.rules). The first rule whose match selects an item
// decides for it; an item that no rule selects is picked up, reconciled and
// deleted at once.
//
// Outcome fields (reconcile, delete, exports, progressingTimeout) apply to
// items served by a fake deployer. Pickup applies to every item: a rule can
// keep even the mock deployer or a real deployer away from an item.
type RuleConfig struct {
	// Match selects deploy items. Every field that is set must match.
	Match MatchConfig `json:"match"`
	// Pickup "never" means no deployer picks the item up, so the
	// landscaper's pickup timeout fails it. Empty: picked up at once.
	Pickup string `json:"pickup,omitempty"`
	// Reconcile is how the item's reconcile goes.
	Reconcile StepConfig `json:"reconcile,omitempty"`
	// Delete is how the item's deletion (uninstall) goes.
	Delete StepConfig `json:"delete,omitempty"`
	// Exports is the value (any YAML) the item exports when its reconcile
	// succeeds, written to its export Secret for the execution to collect.
	Exports json.RawMessage `json:"exports,omitempty"`
	// ProgressingTimeout says whether the item fails when it is not done
	// within its spec.timeout (default 10m) with reason ProgressingTimeout.
	// Default: true for the types whose Landscaper deployers check it
	// (kubernetes-manifest, helm, container), false for others.
	ProgressingTimeout *bool `json:"progressingTimeout,omitempty"`
}

// StepConfig is how a reconcile or a deletion goes.
type StepConfig struct {
	// Duration is how much virtual time it takes, e.g. "3m": the item is
	// Progressing (Deleting) until then. Default: done at once.
	Duration string `json:"duration,omitempty"`
	// Fail, when set, makes it end in Failed (DeleteFailed) with this
	// message after Duration. Default: it succeeds.
	Fail string `json:"fail,omitempty"`
	// Hang keeps the item Progressing (Deleting) for ever (until the
	// progressing timeout, where that applies).
	Hang bool `json:"hang,omitempty"`
}

// MatchConfig selects deploy items. Patterns are globs: '*' matches any run
// of characters (including '/' and '.'), '?' one character.
type MatchConfig struct {
	// Type matches spec.type, e.g. "landscaper.gardener.cloud/helm".
	Type string `json:"type,omitempty"`
	// Name matches the item's name (e.g. "demo-app-6c29l") or its name in
	// the blueprint (label execution.landscaper.gardener.cloud/name, e.g.
	// "app"); either is enough.
	Name string `json:"name,omitempty"`
	// Namespace matches the item's namespace.
	Namespace string `json:"namespace,omitempty"`
	// Labels is a label selector in kubectl syntax, e.g. "tier=db,env!=prod".
	Labels string `json:"labels,omitempty"`
}
