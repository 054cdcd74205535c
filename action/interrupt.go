package action

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// Interrupt interrupts the running job of an installation (or execution) and
// runs to the end: `lscli interrupt`.
type Interrupt struct {
	cfg *Configuration
	// Name names the installation (the execution with Execution).
	Name string
	// Namespace narrows the lookup; empty finds Name in any namespace.
	Namespace string
	// Execution says Name is an execution.
	Execution bool
	// RunOptions bound the run.
	RunOptions RunOptions
}

// NewInterrupt returns the interrupt action over cfg.
func NewInterrupt(cfg *Configuration) *Interrupt { return &Interrupt{cfg: cfg} }

// Run puts landscaper.gardener.cloud/operation: interrupt on the object, runs
// and reports on its root.
func (a *Interrupt) Run(ctx context.Context) (*Run, error) {
	op := operation{kind: "Installation", name: a.Name, namespace: a.Namespace, act: setOperation(lsv1alpha1.InterruptOperation)}
	if a.Execution {
		op.kind = "Execution"
	}
	return operate(ctx, a.cfg, op, a.RunOptions)
}
