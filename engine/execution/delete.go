package execution

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/reconcile"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// interruptedMessage is the lastError of deploy items an interrupt failed.
const interruptedMessage = "operation was interrupted"

// interrupt removes the interrupt annotation and fails every deploy item that
// has not finished the execution's job: phase Failed, jobIDFinished = jobID,
// lastError saying it was interrupted. The execution then finishes as usual.
func (c *Controller) interrupt(ctx context.Context, exec *lsv1alpha1.Execution) error {
	items, err := c.deployItems(ctx, exec)
	if err != nil {
		return err
	}
	now := c.cfg.Clock.Now()
	for _, name := range flow.SortedKeys(items) {
		di := items[name]
		if di.Status.JobID == di.Status.JobIDFinished {
			continue
		}
		di.Status.LastError = reconcile.NewLastError(di.Status.LastError, "InterruptOperation", "Interrupted", fmt.Errorf(interruptedMessage), now)
		di.Status.Phase = lsv1alpha1.DeployItemPhases.Failed
		if di.DeletionTimestamp != nil {
			di.Status.Phase = lsv1alpha1.DeployItemPhases.DeleteFailed
		}
		di.Status.JobIDFinished = di.Status.JobID
		if err := c.cfg.Cluster.UpdateStatus(ctx, di); err != nil {
			return fmt.Errorf("interrupt deploy item %s: %w", di.Name, err)
		}
	}
	delete(exec.Annotations, lsv1alpha1.OperationAnnotation)
	return c.cfg.Cluster.Update(ctx, exec)
}

// deleteDeployItems is the InitDelete phase: every managed deploy item is
// deleted. With delete-without-uninstall, their finalizers are removed first,
// so they go without their deployer.
func (c *Controller) deleteDeployItems(ctx context.Context, exec *lsv1alpha1.Execution) error {
	items, err := c.deployItems(ctx, exec)
	if err != nil {
		return err
	}
	withoutUninstall := lshelper.HasDeleteWithoutUninstallAnnotation(exec.ObjectMeta)
	for _, name := range flow.SortedKeys(items) {
		di := items[name]
		if withoutUninstall && controllerutil.ContainsFinalizer(di, lsv1alpha1.LandscaperFinalizer) {
			di.Annotations[lsv1alpha1.DeleteWithoutUninstallAnnotation] = "true"
			controllerutil.RemoveFinalizer(di, lsv1alpha1.LandscaperFinalizer)
			if err := c.cfg.Cluster.Update(ctx, di); err != nil {
				return fmt.Errorf("release deploy item %s: %w", di.Name, err)
			}
		}
		if err := c.cfg.Cluster.Delete(ctx, di); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete deploy item %s: %w", di.Name, err)
		}
	}
	return nil
}

// deleting is the Deleting phase. While no item failed its deletion, every
// item that no remaining item depends on gets the job ID, which starts its
// deletion (reverse dependsOn order). When all are gone the finalizer is
// removed. When nothing runs any more: DeleteFailed.
func (c *Controller) deleting(ctx context.Context, exec *lsv1alpha1.Execution) (lsv1alpha1.ExecutionPhase, error) {
	items, err := c.deployItems(ctx, exec)
	if err != nil {
		return "", err
	}
	if len(items) == 0 {
		controllerutil.RemoveFinalizer(exec, lsv1alpha1.LandscaperFinalizer)
		return lsv1alpha1.ExecutionPhase(flow.Gone), c.cfg.Cluster.Update(ctx, exec)
	}
	running, failed, triggered := 0, []string{}, 0
	for _, name := range flow.SortedKeys(items) {
		di := items[name]
		switch {
		case di.Status.JobID == exec.Status.JobID && di.Status.JobIDFinished != exec.Status.JobID:
			running++
		case di.Status.JobID == exec.Status.JobID:
			failed = append(failed, name)
		}
	}
	if len(failed) == 0 {
		if triggered, err = c.triggerDeletable(ctx, exec, items); err != nil {
			return "", err
		}
	}
	if running+triggered > 0 {
		return "", nil
	}
	if len(failed) == 0 {
		return "", reconcile.TerminalErrorf("DeployItemsNotDeleted", "deploy items could not be deleted (dependency cycle?): %s",
			strings.Join(flow.SortedKeys(items), ", "))
	}
	return "", reconcile.TerminalErrorf("FailedDeployItems", "deletion of deploy items failed: %s", strings.Join(failed, ", "))
}

// triggerDeletable gives the job ID to each untriggered item that no other
// remaining item lists in dependsOn, and returns how many it triggered.
func (c *Controller) triggerDeletable(ctx context.Context, exec *lsv1alpha1.Execution, items map[string]*lsv1alpha1.DeployItem) (int, error) {
	needed := map[string]bool{}
	for _, di := range items {
		for _, dep := range strings.Split(di.Annotations[lsv1alpha1.ExecutionDependsOnAnnotation], ",") {
			needed[dep] = true
		}
	}
	now := metav1.NewTime(c.cfg.Clock.Now())
	n := 0
	for _, name := range flow.SortedKeys(items) {
		di := items[name]
		if di.Status.JobID == exec.Status.JobID || needed[name] {
			continue
		}
		flow.SetJobID(di, exec.Status.JobID, now)
		if err := c.cfg.Cluster.UpdateStatus(ctx, di); err != nil {
			return n, fmt.Errorf("trigger deletion of deploy item %s: %w", di.Name, err)
		}
		n++
	}
	return n, nil
}
