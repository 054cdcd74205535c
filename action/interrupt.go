package action

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/engine/execution"
	"github.com/lscli/lscli/engine/flow"
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

// notRunning says why obj has no job to interrupt, or "" when it has one or
// the interrupt would still fail a deploy item below it (see
// interruptReaches).
func notRunning(objs []fakecluster.Object, obj fakecluster.Object) string {
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
	case flow.HasOperation(obj, lsv1alpha1.ReconcileOperation) && fakecluster.ControllerOf(obj) == nil:
		// The interrupt replaces the pending reconcile annotation of a
		// root or stand-alone object (the operation annotation has one
		// value), and Landscaper handles it before it starts a new job:
		// that job never starts. (An installation keeps the annotation on
		// its Execution, where it starts nothing.)
		return ""
	case jobID == "":
		return name + " has never started a job: there is nothing to interrupt"
	case interruptReaches(objs, obj):
		return ""
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

// interruptReaches reports whether the interrupt annotation on obj would
// fail a deploy item, as it does on a cluster also when obj's job has
// finished: Landscaper's installation controller passes the annotation on
// to the execution and the subinstallations whatever their phase, and the
// execution controller fails every managed item that has not finished the
// execution's job (execution.InterruptFails, Landscaper's
// handleInterruptOperation), such as an item the last job never reached
// because a dependency failed. The children are
// found as the engine finds them: subinstallations and the execution
// (named after the installation) by their controller reference, items by
// the managed-by label.
func interruptReaches(objs []fakecluster.Object, obj fakecluster.Object) bool {
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		for _, c := range objs {
			if c.GetNamespace() != o.Namespace || !metav1.IsControlledBy(c, o) {
				continue
			}
			switch child := c.(type) {
			case *lsv1alpha1.Installation:
				if interruptReaches(objs, child) {
					return true
				}
			case *lsv1alpha1.Execution:
				if child.Name == o.Name && interruptReaches(objs, child) {
					return true
				}
			}
		}
	case *lsv1alpha1.Execution:
		for _, c := range objs {
			di, ok := c.(*lsv1alpha1.DeployItem)
			if ok && di.Namespace == o.Namespace && di.Labels[lsv1alpha1.ExecutionManagedByLabel] == o.Name &&
				execution.InterruptFails(o, di) {
				return true
			}
		}
	}
	return false
}
