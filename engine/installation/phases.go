package installation

import (
	"context"
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/reconcile"
)

// runPhase does the work of the current phase and returns the next phase, ""
// to wait in the current one, or flow.Gone. Each phase handler documents
// where it goes; a normal error keeps the phase and is retried with growing
// intervals, a terminal one ends the flow in Failed (or DeleteFailed).
func (c *Controller) runPhase(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
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

// progressing is the Progressing phase: it waits (no requeue: the children's
// changes wake it) while any child has not finished the job, moves to
// Completing when all succeeded, and otherwise fails naming the failed ones.
func (c *Controller) progressing(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
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
		return "", reconcile.TerminalErrorf("FailedSubinstallations", "Failed sub-installation(s): %s", strings.Join(failedSubs, ", "))
	case execFailed:
		return "", reconcile.TerminalErrorf("FailedExecution", "Execution is failed")
	}
	return lsv1alpha1.InstallationPhases.Completing, nil
}
