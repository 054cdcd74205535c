package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// handlePhase walks inst through its phases, falling through to the next
// phase within one call as long as each succeeds, as Landscaper does. Each
// phase handler documents where it goes; a normal error keeps the phase and is
// retried with growing intervals, a terminal one ends the flow in Failed (or
// DeleteFailed).
func (c *installationController) handlePhase(ctx context.Context, inst *lsv1alpha1.Installation) (Result, error) {
	if inst.Status.InstallationPhase == "" || inst.Status.InstallationPhase.IsFinal() {
		if err := c.enterFirstPhase(ctx, inst); err != nil {
			return Result{}, err
		}
	}
	for {
		next, err := c.runPhase(ctx, inst)
		if err != nil {
			return Result{}, c.handleError(ctx, inst, err)
		}
		if next == "" || next == phaseGone {
			return Result{}, nil
		}
		if err := c.setPhase(ctx, inst, next); err != nil {
			return Result{}, err
		}
		if next.IsFinal() {
			return Result{}, nil
		}
	}
}

// phaseGone is returned by a phase handler after it removed the installation.
const phaseGone lsv1alpha1.InstallationPhase = "<gone>"

// runPhase does the work of the current phase and returns the next phase, or
// "" to wait in the current one.
func (c *installationController) runPhase(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	phases := lsv1alpha1.InstallationPhases
	switch inst.Status.InstallationPhase {
	case phases.Init:
		return c.init(ctx, inst)
	case phases.CleanupOrphaned:
		return c.cleanupOrphaned(ctx, inst)
	case phases.ObjectsCreated:
		return phases.Progressing, c.triggerChildren(ctx, inst)
	case phases.Progressing:
		return c.progressing(ctx, inst)
	case phases.Completing:
		return c.complete(ctx, inst)
	case phases.InitDelete:
		return c.initDelete(ctx, inst)
	case phases.TriggerDelete:
		return phases.Deleting, c.triggerChildren(ctx, inst)
	case phases.Deleting:
		return c.deleting(ctx, inst)
	}
	return "", fmt.Errorf("phase %q is not handled", inst.Status.InstallationPhase)
}

// enterFirstPhase starts the flow of a new job: Init (InitDelete when the
// installation is being deleted), observedGeneration = generation.
func (c *installationController) enterFirstPhase(ctx context.Context, inst *lsv1alpha1.Installation) error {
	first := lsv1alpha1.InstallationPhases.Init
	if inst.DeletionTimestamp != nil {
		first = lsv1alpha1.InstallationPhases.InitDelete
	}
	inst.Status.SubInstCache = nil
	installationFlow(inst).start(first, inst.Generation, c.cfg.Clock.Now())
	return c.writeStatus(ctx, inst, first)
}

// setPhase writes phase; a final phase also finishes the job.
func (c *installationController) setPhase(ctx context.Context, inst *lsv1alpha1.Installation, phase lsv1alpha1.InstallationPhase) error {
	installationFlow(inst).set(phase, c.cfg.Clock.Now())
	return c.writeStatus(ctx, inst, phase)
}

func (c *installationController) writeStatus(ctx context.Context, inst *lsv1alpha1.Installation, phase lsv1alpha1.InstallationPhase) error {
	if err := c.cfg.Cluster.UpdateStatus(ctx, inst); err != nil {
		return fmt.Errorf("set phase %s: %w", phase, err)
	}
	return nil
}

// handleError records err in lastError. A terminal error ends the flow in
// Failed (DeleteFailed while deleting); a normal one is returned for a retry.
func (c *installationController) handleError(ctx context.Context, inst *lsv1alpha1.Installation, err error) error {
	phases := lsv1alpha1.InstallationPhases
	terminal := installationFlow(inst).fail(err, phases.Failed, phases.DeleteFailed, c.cfg.Clock.Now())
	if uerr := c.writeStatus(ctx, inst, inst.Status.InstallationPhase); uerr != nil || terminal {
		return uerr
	}
	return err
}

// progressing is the Progressing phase: it waits (no requeue: the children's
// changes wake it) while any child has not finished the job, moves to
// Completing when all succeeded, and otherwise fails naming the failed ones.
func (c *installationController) progressing(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	kids, err := c.children(ctx, inst)
	if err != nil {
		return "", err
	}
	var failedSubs []string
	execFailed := false
	for _, k := range kids {
		if k.obj.GetDeletionTimestamp() != nil {
			continue
		}
		if k.status.JobIDFinished != inst.Status.JobID {
			return "", nil
		}
		if k.status.Phase == string(lsv1alpha1.InstallationPhases.Succeeded) {
			continue
		}
		if k.kind == "Execution" {
			execFailed = true
		} else {
			failedSubs = append(failedSubs, k.obj.GetName())
		}
	}
	switch {
	case len(failedSubs) > 0:
		sort.Strings(failedSubs)
		return "", terminalErrorf("FailedSubinstallations", "Failed sub-installation(s): %s", strings.Join(failedSubs, ", "))
	case execFailed:
		return "", terminalErrorf("FailedExecution", "Execution is failed")
	}
	return lsv1alpha1.InstallationPhases.Completing, nil
}
