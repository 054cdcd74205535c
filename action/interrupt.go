package action

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
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
	op := operation{kind: "Installation", name: a.Name, namespace: a.Namespace,
		act: setOperation(lsv1alpha1.InterruptOperation), idle: notRunning}
	if a.Execution {
		op.kind = "Execution"
	}
	return operate(ctx, a.cfg, a.RunOptions, op)
}

// notRunning says why obj has no job to interrupt, or "" when it has one.
func notRunning(obj fakecluster.Object) string {
	var jobID, finished, phase string
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		jobID, finished, phase = o.Status.JobID, o.Status.JobIDFinished, string(o.Status.InstallationPhase)
	case *lsv1alpha1.Execution:
		jobID, finished, phase = o.Status.JobID, o.Status.JobIDFinished, string(o.Status.ExecutionPhase)
	default:
		return ""
	}
	name := obj.GetObjectKind().GroupVersionKind().Kind + " " + obj.GetNamespace() + "/" + obj.GetName()
	switch {
	case jobID == "":
		return name + " has never started a job: there is nothing to interrupt"
	case jobID == finished:
		return fmt.Sprintf("%s has no running job (job %s finished, phase %s): there is nothing to interrupt", name, short(jobID), orNone(phase))
	}
	return ""
}

// short is the first 8 characters of a job ID, as the tree shows it.
func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
