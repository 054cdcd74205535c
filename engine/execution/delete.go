package execution

import (
	"context"
	"fmt"
	"sort"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/reconcile"
)

// interruptedOp and interruptedMessage are the lastError of deploy items an
// interrupt failed.
const (
	interruptedOp      = "InterruptOperation"
	interruptedMessage = "operation was interrupted"
)

// interrupt removes the interrupt annotation and, as Landscaper does, fails
// every managed deploy item (orphans too) that has not finished the
// execution's job, also those the job never triggered: they get the job ID as
// jobID and jobIDFinished, finishedTime, phase Failed (DeleteFailed while
// being deleted) and lastError "operation was interrupted". The execution
// then fails in Progressing (or Deleting) as usual.
func (c *Controller) interrupt(ctx context.Context, exec *lsv1alpha1.Execution) error {
	delete(exec.Annotations, lsv1alpha1.OperationAnnotation)
	if err := c.cfg.Cluster.Update(ctx, exec); err != nil {
		return err
	}
	items, err := c.managedDeployItems(ctx, exec, false)
	if err != nil {
		return err
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Name < items[j].Name })
	now := metav1.NewTime(c.cfg.Clock.Now())
	for _, di := range items {
		if !InterruptFails(exec, di) {
			continue
		}
		failInterrupted(di, exec.Status.JobID, now)
		if err := c.cfg.Cluster.UpdateStatus(ctx, di); err != nil {
			return fmt.Errorf("interrupt deploy item %s: %w", di.Name, err)
		}
	}
	return nil
}

// InterruptFails reports whether an interrupt of exec fails di, one of the
// deploy items it manages: one that has not finished the execution's job,
// also when the job has ended without reaching it.
func InterruptFails(exec *lsv1alpha1.Execution, di *lsv1alpha1.DeployItem) bool {
	return di.Status.JobIDFinished != exec.Status.JobID
}

// failInterrupted sets di's status as an interrupt leaves it.
func failInterrupted(di *lsv1alpha1.DeployItem, jobID string, now metav1.Time) {
	di.Status.JobID, di.Status.JobIDFinished = jobID, jobID
	if di.Status.TransitionTimes == nil {
		di.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{}
	}
	di.Status.TransitionTimes.FinishedTime = &now
	di.Status.Phase = lsv1alpha1.DeployItemPhases.Failed
	if di.DeletionTimestamp != nil {
		di.Status.Phase = lsv1alpha1.DeployItemPhases.DeleteFailed
	}
	reconcile.SetDeployItemError(&di.Status, reconcile.UpdatedError(di.Status.LastError, interruptedOp, interruptedOp,
		interruptedMessage, nil, now.Time))
}

// deleteDeployItems is the InitDelete phase: every managed deploy item is
// deleted, in the order the API server lists them (by object name), as
// Landscaper's handlePhaseInitDelete goes through ListManagedDeployItems;
// with delete-without-uninstall, it first gets that annotation too (its
// finalizer is removed in Deleting, see triggerDeletion).
func (c *Controller) deleteDeployItems(ctx context.Context, exec *lsv1alpha1.Execution) error {
	items, err := c.managedDeployItems(ctx, exec, false)
	if err != nil {
		return reconcile.Wrap(err, "handlePhaseInitDelete", "ListDeployItems")
	}
	withoutUninstall := lshelper.HasDeleteWithoutUninstallAnnotation(exec.ObjectMeta)
	for _, di := range items {
		if withoutUninstall && !lshelper.HasDeleteWithoutUninstallAnnotation(di.ObjectMeta) {
			metav1.SetMetaDataAnnotation(&di.ObjectMeta, lsv1alpha1.DeleteWithoutUninstallAnnotation, "true")
			if err := c.cfg.Cluster.Update(ctx, di); err != nil {
				return reconcile.Wrap(err, "DeleteDeployItem",
					fmt.Sprintf("unable to set deleteWithoutUninstall annotation before deleting deploy item %s / %s", di.Namespace, di.Name))
			}
		}
		if di.DeletionTimestamp == nil {
			if err := c.cfg.Cluster.Delete(ctx, di); err != nil && !apierrors.IsNotFound(err) {
				return reconcile.Wrap(err, "DeleteDeployItem", fmt.Sprintf("unable to delete deploy item %s / %s", di.Namespace, di.Name))
			}
		}
	}
	return nil
}

// deleting is the Deleting phase, as Landscaper's TriggerDeployItemsForDelete
// and the controller around it. It looks at the items of the execution's
// templates only, with the templates' dependsOn: an orphan (an item without
// a template, such as one whose deletion failed in an earlier job) was
// deleted in InitDelete but gets no job here and does not hold the
// execution. When the templates' items are gone the finalizer is removed.
// While no item failed its deletion, every item that no remaining item
// depends on starts its deletion (reverse dependsOn order). Nothing running
// and an item failed: DeleteFailed ("has failed items"); nothing running or
// startable: DeleteFailed ("has pending items"). Otherwise it waits, with no
// lastError.
func (c *Controller) deleting(ctx context.Context, exec *lsv1alpha1.Execution) (lsv1alpha1.ExecutionPhase, error) {
	items, _, err := c.executionItems(ctx, exec)
	if err != nil {
		return "", err
	}
	cl := classifyForDelete(exec.Status.JobID, items)
	if cl.allSucceeded() {
		controllerutil.RemoveFinalizer(exec, lsv1alpha1.LandscaperFinalizer)
		if err := c.cfg.Cluster.Update(ctx, exec); err != nil {
			return "", reconcile.Wrap(err, "TriggerDeployItemsForDelete", "RemoveFinalizer")
		}
		return lsv1alpha1.ExecutionPhase(flow.Gone), nil
	}
	if len(cl.failed) == 0 {
		if err := c.triggerDeletion(ctx, exec, cl.runnable); err != nil {
			return "", err
		}
	}
	switch {
	case len(cl.running) == 0 && len(cl.failed) > 0:
		return "", reconcile.Fatal(reconcile.NewError(opPhase, reasonDeleting, msgDeleteFailed, lsv1alpha1.ErrorForInfoOnly))
	case len(cl.running) == 0 && len(cl.runnable) == 0 && len(cl.pending) > 0:
		return "", reconcile.Fatal(reconcile.NewError(opPhase, reasonDeleting, msgDeletePending, lsv1alpha1.ErrorForInfoOnly))
	}
	exec.Status.LastError = nil
	return "", nil
}
