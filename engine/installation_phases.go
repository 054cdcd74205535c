package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// handlePhase walks inst through its phases, falling through to the next
// phase within one call as long as each succeeds, as Landscaper does.
//
// Init moves to ObjectsCreated on success; a normal error keeps Init and is
// retried, a terminal one ends in Failed. ObjectsCreated passes the job ID to
// the children and moves to Progressing. Progressing waits for the children
// (no requeue: their changes wake it) and moves to Completing when all
// succeeded, else to Failed. Completing ends in Succeeded.
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
		if next == "" {
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

// runPhase does the work of the current phase and returns the next phase, or
// "" to wait in the current one.
func (c *installationController) runPhase(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	switch inst.Status.InstallationPhase {
	case lsv1alpha1.InstallationPhases.Init:
		return lsv1alpha1.InstallationPhases.ObjectsCreated, c.init(ctx, inst)
	case lsv1alpha1.InstallationPhases.ObjectsCreated:
		return lsv1alpha1.InstallationPhases.Progressing, c.triggerChildren(ctx, inst)
	case lsv1alpha1.InstallationPhases.Progressing:
		return c.progressing(ctx, inst)
	case lsv1alpha1.InstallationPhases.Completing:
		return lsv1alpha1.InstallationPhases.Succeeded, nil
	}
	return "", fmt.Errorf("phase %q is not handled", inst.Status.InstallationPhase)
}

// enterFirstPhase starts the flow of a new job: Init (InitDelete when the
// installation is being deleted), observedGeneration = generation.
func (c *installationController) enterFirstPhase(ctx context.Context, inst *lsv1alpha1.Installation) error {
	phase := lsv1alpha1.InstallationPhases.Init
	if inst.DeletionTimestamp != nil {
		phase = lsv1alpha1.InstallationPhases.InitDelete
	}
	now := metav1.NewTime(c.cfg.Clock.Now())
	inst.Status.ObservedGeneration = inst.Generation
	inst.Status.SubInstCache = nil
	inst.Status.LastError = nil
	if inst.Status.TransitionTimes == nil {
		inst.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{}
	}
	inst.Status.TransitionTimes.InitTime = &now
	return c.setPhase(ctx, inst, phase)
}

// setPhase writes phase; a final phase also finishes the job.
func (c *installationController) setPhase(ctx context.Context, inst *lsv1alpha1.Installation, phase lsv1alpha1.InstallationPhase) error {
	now := metav1.NewTime(c.cfg.Clock.Now())
	inst.Status.InstallationPhase = phase
	inst.Status.PhaseTransitionTime = &now
	if phase.IsFinal() {
		inst.Status.JobIDFinished = inst.Status.JobID
		if inst.Status.TransitionTimes != nil {
			inst.Status.TransitionTimes.FinishedTime = &now
		}
	}
	if err := c.cfg.Cluster.UpdateStatus(ctx, inst); err != nil {
		return fmt.Errorf("set phase %s: %w", phase, err)
	}
	return nil
}

// handleError records err in lastError. A terminal error ends the flow in
// Failed (DeleteFailed while deleting); a normal one is returned for a retry.
func (c *installationController) handleError(ctx context.Context, inst *lsv1alpha1.Installation, err error) error {
	op := string(inst.Status.InstallationPhase)
	inst.Status.LastError = NewLastError(inst.Status.LastError, op, "", err, c.cfg.Clock.Now())
	if !IsTerminal(err) {
		if uerr := c.cfg.Cluster.UpdateStatus(ctx, inst); uerr != nil {
			return uerr
		}
		return err
	}
	failed := lsv1alpha1.InstallationPhases.Failed
	if inst.Status.InstallationPhase.IsDeletion() {
		failed = lsv1alpha1.InstallationPhases.DeleteFailed
	}
	return c.setPhase(ctx, inst, failed)
}

// progressing checks the children of inst: "" while any is unfinished,
// Completing when all succeeded, else Failed with a lastError naming them.
func (c *installationController) progressing(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	kids, err := c.children(ctx, inst)
	if err != nil {
		return "", err
	}
	var failed []string
	for _, k := range kids {
		if k.status.JobIDFinished != inst.Status.JobID {
			return "", nil
		}
		if k.status.Phase != string(lsv1alpha1.InstallationPhases.Succeeded) {
			failed = append(failed, k.describe())
		}
	}
	if len(failed) == 0 {
		return lsv1alpha1.InstallationPhases.Completing, nil
	}
	sort.Strings(failed)
	return "", terminalErrorf("FailedChildren", "failed: %s", strings.Join(failed, ", "))
}
