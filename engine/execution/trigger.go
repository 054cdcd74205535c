package execution

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/reconcile"
)

// progressing is the Progressing phase, as Landscaper's TriggerDeployItems
// and the controller around it. Orphaned items (no template any more) are
// deleted first: while any exists, the new items wait. Then, while no item
// failed, every runnable item gets the execution's job ID. Nothing running
// and an item failed (or is missing): Failed. Nothing running or runnable and
// some pending: Failed. All succeeded: Completing. Else it waits for the
// items with the informational lastError "some running items" (no retry:
// the items' changes wake it).
func (c *Controller) progressing(ctx context.Context, exec *lsv1alpha1.Execution) (lsv1alpha1.ExecutionPhase, error) {
	// The items are read-only views: Progressing looks at them on every
	// change of any of them; trigger and triggerDeletion copy the few they
	// change.
	view, err := c.progressView(ctx, exec)
	if err != nil {
		return "", err
	}
	items, orphans := view.items, view.orphans
	jobID := exec.Status.JobID
	if ocl := classifyForDelete(jobID, orphans); !ocl.allSucceeded() {
		if len(ocl.failed) == 0 {
			if err := c.triggerDeletion(ctx, exec, ocl.runnable); err != nil {
				return "", err
			}
		}
		return judgeProgressing(ocl)
	}
	cl, err := classify(jobID, items)
	if err != nil {
		return "", err
	}
	if len(cl.failed) == 0 {
		now := metav1.NewTime(c.cfg.Clock.Now())
		for _, it := range cl.runnable {
			if err := c.trigger(ctx, it.di, jobID, now); err != nil {
				return "", err
			}
		}
	}
	return judgeProgressing(cl)
}

// waitsAsRecorded reports whether exec, an execution whose job is
// unfinished, waits in Progressing for its items exactly as its lastError
// already says: no orphan to delete, no item to trigger, and the same
// "not finished yet" (see flow.RecordedWait). exec is the stored object:
// this only reads.
func (c *Controller) waitsAsRecorded(ctx context.Context, exec *lsv1alpha1.Execution) bool {
	st := exec.Status
	if st.ExecutionPhase != lsv1alpha1.ExecutionPhases.Progressing || st.LastError == nil || exec.DeletionTimestamp != nil {
		return false
	}
	view, err := c.progressView(ctx, exec)
	if err != nil || !classifyForDelete(st.JobID, view.orphans).allSucceeded() {
		return false
	}
	cl, err := classify(st.JobID, view.items)
	if err != nil || (len(cl.failed) == 0 && len(cl.runnable) > 0) {
		return false
	}
	next, err := judgeProgressing(cl)
	return next == "" && flow.RecordedWait(st.LastError, err, string(st.ExecutionPhase), c.cfg.Clock.Now())
}

// itemsView is what listExecutionItems returns for reading only.
type itemsView struct{ items, orphans []item }

// progressView is listExecutionItems for reading only, as Progressing looks
// at the items. The view of the last call is kept while nothing is written
// (flow.ViewMemo): the idle check of a wake-up (waitsAsRecorded) and the
// pass that follows it look at the same items.
func (c *Controller) progressView(ctx context.Context, exec *lsv1alpha1.Execution) (itemsView, error) {
	return c.progress.Get(exec.UID, c.cfg.Cluster.ResourceVersion(), func() (itemsView, error) {
		items, orphans, err := c.listExecutionItems(ctx, exec, true, exec.Status.DeployItemCache)
		return itemsView{items, orphans}, err
	})
}

// judgeProgressing decides what follows Progressing from the classes the
// items were in before this pass triggered any.
func judgeProgressing(cl classes) (lsv1alpha1.ExecutionPhase, error) {
	switch {
	case len(cl.running) == 0 && len(cl.failed) > 0:
		return "", reconcile.Fatal(reconcile.NewError(opPhase, reasonProgressing, msgFailedItems, lsv1alpha1.ErrorForInfoOnly))
	case len(cl.running) == 0 && len(cl.runnable) == 0 && len(cl.pending) > 0:
		return "", reconcile.Fatal(reconcile.NewError(opPhase, reasonProgressing, msgNotStarted, lsv1alpha1.ErrorForInfoOnly))
	case !cl.allSucceeded():
		return "", reconcile.NewError(opPhase, reasonProgressing, msgRunning,
			lsv1alpha1.ErrorUnfinished, lsv1alpha1.ErrorForInfoOnly, lsv1alpha1.ErrorNoRetry)
	}
	return lsv1alpha1.ExecutionPhases.Completing, nil
}

// trigger gives di the job ID, which starts its job: new transition times
// (triggerTime) and jobIDGenerationTime.
func (c *Controller) trigger(ctx context.Context, di *lsv1alpha1.DeployItem, jobID string, now metav1.Time) error {
	di = di.DeepCopy() // di may be a read-only view
	flow.SetJobID(di, jobID, now)
	if err := c.cfg.Cluster.UpdateStatus(ctx, di); err != nil {
		return reconcile.Wrap(err, "TriggerDeployItem", "UpdateDeployItemStatus")
	}
	return nil
}

// triggerDeletion starts the deletion of the items: it gives each the job ID,
// or, when its uninstall is skipped (see skipUninstall), removes its
// finalizer so that it goes without its deployer.
func (c *Controller) triggerDeletion(ctx context.Context, exec *lsv1alpha1.Execution, items []item) error {
	now := metav1.NewTime(c.cfg.Clock.Now())
	for _, it := range items {
		skip, err := c.skipUninstall(ctx, it.di)
		if err != nil {
			return err
		}
		if !skip {
			if err := c.trigger(ctx, it.di, exec.Status.JobID, now); err != nil {
				return err
			}
			continue
		}
		di := it.di.DeepCopy() // it.di may be a read-only view
		if controllerutil.RemoveFinalizer(di, lsv1alpha1.LandscaperFinalizer) {
			if err := c.cfg.Cluster.Update(ctx, di); err != nil {
				return reconcile.Wrap(fmt.Errorf("release deploy item %s: %w", di.Name, err), "removeFinalizerFromDeployItem", "UpdateDeployItem")
			}
		}
	}
	return nil
}
