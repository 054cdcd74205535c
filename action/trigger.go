package action

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// Trigger starts a new job at a root installation (or retries its failed
// deletion) and runs to the end: `lscli trigger`.
type Trigger struct {
	cfg *Configuration
	// Name names the root installation.
	Name string
	// Namespace narrows the lookup; empty finds Name in any namespace.
	Namespace string
	// RunOptions bound the run.
	RunOptions RunOptions
}

// NewTrigger returns the trigger action over cfg.
func NewTrigger(cfg *Configuration) *Trigger { return &Trigger{cfg: cfg} }

// Run puts the reconcile annotation on the root, runs and reports on it. A
// subinstallation is invalid input.
func (a *Trigger) Run(ctx context.Context) (*Run, error) {
	return operate(ctx, a.cfg, operation{kind: "Installation", name: a.Name, namespace: a.Namespace,
		check: requireRoot("triggered"), act: setOperation(lsv1alpha1.ReconcileOperation)}, a.RunOptions)
}
