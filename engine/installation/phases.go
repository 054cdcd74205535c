package installation

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/reconcile"
)

// runPhase does the work of the current phase and returns the next phase, ""
// to wait in the current one, or flow.Gone. Each phase handler documents
// where it goes and which of its errors are fatal (end the flow in Failed or
// DeleteFailed), as Landscaper decides per phase; other errors keep the phase
// and are retried.
func (c *Controller) runPhase(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	phases := lsv1alpha1.InstallationPhases
	switch inst.Status.InstallationPhase {
	case phases.Init:
		// Landscaper records the generation after every Init attempt, also
		// one that waits: a spec change while waiting in Init is this job's.
		next, err := c.init(ctx, inst)
		inst.Status.ObservedGeneration = inst.Generation
		return next, err
	case phases.CleanupOrphaned:
		return c.cleanupOrphaned(ctx, inst)
	case phases.ObjectsCreated:
		if err := c.triggerChildren(ctx, inst, false); err != nil {
			return "", phaseError(err, "handlePhaseObjectsCreated")
		}
		flow.SetWaitTime(&inst.Status.TransitionTimes, c.cfg.Clock.Now())
		return phases.Progressing, nil
	case phases.Progressing:
		return c.progressing(ctx, inst)
	case phases.Completing:
		return c.complete(ctx, inst)
	case phases.InitDelete:
		return c.initDelete(ctx, inst)
	case phases.TriggerDelete:
		if err := c.triggerChildren(ctx, inst, true); err != nil {
			return "", phaseError(err, "handleDeletionPhaseTriggerDeleting")
		}
		flow.SetWaitTime(&inst.Status.TransitionTimes, c.cfg.Clock.Now())
		return phases.Deleting, nil
	case phases.Deleting:
		return c.deleting(ctx, inst)
	}
	return "", fmt.Errorf("phase %q is not handled", inst.Status.InstallationPhase)
}

// progressing is the Progressing phase, as Landscaper's: while a
// subinstallation (in status.subInstCache order; also one being deleted,
// which finishes its job as usual) or then the execution has
// not finished its job, it waits with the informational lastError
// "installation <ns> / <name> is not finished yet" (no retry: the children's
// changes wake it). All succeeded: Completing; otherwise Failed with
// "Failed sub-installation(s): ..." and/or "Execution is failed".
func (c *Controller) progressing(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	kids, err := c.childrenView(ctx, inst)
	if err != nil {
		return "", phaseError(err, "handlePhaseProgressing")
	}
	allSucceeded, execFailed := true, false
	var failedSubs []string
	for _, k := range kids {
		if k.status.JobIDFinished != k.status.JobID {
			msg := fmt.Sprintf("%s %s / %s is not finished yet", strings.ToLower(k.kind), k.obj.GetNamespace(), k.obj.GetName())
			return "", reconcile.NewError("handlePhaseProgressing", "JobIDFinished", msg,
				lsv1alpha1.ErrorUnfinished, lsv1alpha1.ErrorForInfoOnly, lsv1alpha1.ErrorNoRetry)
		}
		succeeded := k.status.Phase == string(lsv1alpha1.InstallationPhases.Succeeded)
		allSucceeded = allSucceeded && succeeded
		failed := k.status.Phase == string(lsv1alpha1.InstallationPhases.Failed) ||
			k.status.Phase == string(lsv1alpha1.InstallationPhases.DeleteFailed)
		switch {
		case failed && k.kind == "Execution":
			execFailed = true
		case failed:
			failedSubs = append(failedSubs, k.obj.GetName())
		}
	}
	if allSucceeded {
		return lsv1alpha1.InstallationPhases.Completing, nil
	}
	return "", reconcile.Fatal(failedChildren(failedSubs, execFailed))
}

// waitsAsRecorded reports whether inst, an installation whose job is
// unfinished, waits in Progressing for a child exactly as its lastError
// already says: a reconcile would record the same "not finished yet" again,
// which leaves the status as it is (reconcile.UpdatedError), and wait for
// the next change. A parent is woken by every change of any of its
// children, and most of those wake-ups are such waits. inst is the stored
// object: this only reads.
func (c *Controller) waitsAsRecorded(ctx context.Context, inst *lsv1alpha1.Installation) bool {
	st := inst.Status
	if st.InstallationPhase != lsv1alpha1.InstallationPhases.Progressing || st.LastError == nil || inst.DeletionTimestamp != nil {
		return false
	}
	next, err := c.progressing(ctx, inst)
	return next == "" && flow.RecordedWait(st.LastError, err, string(st.InstallationPhase), c.cfg.Clock.Now())
}

// failedChildren is Landscaper's error for failed children: both texts run
// together without a separator when both apply, as in Landscaper.
func failedChildren(subs []string, execFailed bool) error {
	msg := ""
	if len(subs) > 0 {
		msg = "Failed sub-installation(s): " + strings.Join(subs, ", ")
	}
	if execFailed {
		msg += "Execution is failed"
	}
	return reconcile.NewError("buildErrorIfFailedChild", "children failed", msg)
}
