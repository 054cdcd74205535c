package execution

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// itemClasses sorts an execution's templates as Landscaper's classification
// does, by what their deploy item is doing in the execution's job.
type itemClasses struct {
	running, succeeded, failed, runnable, pending []string
}

// classify sorts the templates of exec given its deploy items by name.
func classify(exec *lsv1alpha1.Execution, items map[string]*lsv1alpha1.DeployItem) itemClasses {
	var cl itemClasses
	jobID := exec.Status.JobID
	for _, tmpl := range exec.Spec.DeployItems {
		di := items[tmpl.Name]
		switch {
		case di == nil:
			cl.failed = append(cl.failed, tmpl.Name)
		case di.Status.JobID == jobID && di.Status.JobIDFinished != jobID:
			cl.running = append(cl.running, tmpl.Name)
		case di.Status.JobID == jobID && di.Status.Phase == lsv1alpha1.DeployItemPhases.Succeeded:
			cl.succeeded = append(cl.succeeded, tmpl.Name)
		case di.Status.JobID == jobID:
			cl.failed = append(cl.failed, tmpl.Name)
		case dependenciesFinished(tmpl.DependsOn, items, jobID):
			cl.runnable = append(cl.runnable, tmpl.Name)
		default:
			cl.pending = append(cl.pending, tmpl.Name)
		}
	}
	return cl
}

// dependenciesFinished reports whether every item in dependsOn finished the
// job (not necessarily successfully). An unknown name never finishes.
func dependenciesFinished(dependsOn []string, items map[string]*lsv1alpha1.DeployItem, jobID string) bool {
	for _, name := range dependsOn {
		di := items[name]
		if di == nil || di.Status.JobIDFinished != jobID {
			return false
		}
	}
	return true
}

// triggerDeployItems is the Progressing phase. While no item failed, every
// runnable item gets the execution's job ID. Then: Failed when nothing runs and
// an item failed or none can start; Completing when all succeeded; else wait.
func (c *Controller) triggerDeployItems(ctx context.Context, exec *lsv1alpha1.Execution) (lsv1alpha1.ExecutionPhase, error) {
	items, err := c.deployItems(ctx, exec)
	if err != nil {
		return "", err
	}
	if done, err := c.deleteOrphans(ctx, exec, items); !done || err != nil {
		return "", err
	}
	cl := classify(exec, items)
	if len(cl.failed) == 0 {
		now := metav1.NewTime(c.cfg.Clock.Now())
		for _, name := range cl.runnable {
			flow.SetJobID(items[name], exec.Status.JobID, now)
			if err := c.cfg.Cluster.UpdateStatus(ctx, items[name]); err != nil {
				return "", fmt.Errorf("trigger deploy item %s: %w", items[name].Name, err)
			}
		}
		cl.running = append(cl.running, cl.runnable...)
	}
	switch {
	case len(cl.running) == 0 && len(cl.failed) > 0:
		return "", reconcile.TerminalErrorf("FailedDeployItems", "has failed or missing deploy items: %s", strings.Join(cl.failed, ", "))
	case len(cl.running) == 0 && len(cl.pending) > 0:
		return "", reconcile.TerminalErrorf("DeployItemsNotStarted",
			"items could not be started (dependency cycle or unknown dependsOn): %s", strings.Join(cl.pending, ", "))
	case len(cl.succeeded) == len(exec.Spec.DeployItems):
		return lsv1alpha1.ExecutionPhases.Completing, nil
	}
	return "", nil
}

// deleteOrphans drives the deletion of orphaned items (those without a
// template any more) to its end before anything else is triggered: it gives
// them the job ID and reports done when they are gone. When all remaining
// orphans failed their deletion, the execution fails.
func (c *Controller) deleteOrphans(ctx context.Context, exec *lsv1alpha1.Execution, items map[string]*lsv1alpha1.DeployItem) (bool, error) {
	wanted := map[string]bool{}
	for _, tmpl := range exec.Spec.DeployItems {
		wanted[tmpl.Name] = true
	}
	now := metav1.NewTime(c.cfg.Clock.Now())
	remaining, unfinished := 0, 0
	for _, name := range flow.SortedKeys(items) {
		di := items[name]
		if wanted[name] {
			continue
		}
		remaining++
		if di.Status.JobID != exec.Status.JobID {
			flow.SetJobID(di, exec.Status.JobID, now)
			if err := c.cfg.Cluster.UpdateStatus(ctx, di); err != nil {
				return false, fmt.Errorf("trigger deletion of orphaned deploy item %s: %w", di.Name, err)
			}
		}
		if di.Status.JobIDFinished != exec.Status.JobID {
			unfinished++
		}
	}
	if remaining > 0 && unfinished == 0 {
		return false, reconcile.TerminalErrorf("OrphanDeletionFailed", "deletion of orphaned deploy items failed")
	}
	return remaining == 0, nil
}

// collectExports is the Completing phase: the exports of all deploy items,
// keyed by template name, go into one DataObject that status.exportRef names.
func (c *Controller) collectExports(ctx context.Context, exec *lsv1alpha1.Execution) error {
	items, err := c.deployItems(ctx, exec)
	if err != nil {
		return err
	}
	exports := map[string]any{}
	names := make([]string, 0, len(items))
	for name := range items {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		val, err := c.itemExports(ctx, items[name])
		if err != nil {
			return err
		}
		if val != nil {
			exports[name] = val
		}
	}
	return c.writeExportDataObject(ctx, exec, exports)
}

// itemExports reads the exports a deployer wrote for di, or nil if none.
func (c *Controller) itemExports(ctx context.Context, di *lsv1alpha1.DeployItem) (any, error) {
	ref := di.Status.ExportReference
	if ref == nil {
		return nil, nil
	}
	secret := &corev1.Secret{}
	key := types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}
	if key.Namespace == "" {
		key.Namespace = di.Namespace
	}
	if err := c.cfg.Cluster.Get(ctx, key, secret); err != nil {
		return nil, fmt.Errorf("read exports of deploy item %s: %w", di.Name, err)
	}
	var val any
	if err := json.Unmarshal(secret.Data[lsv1alpha1.DataObjectSecretDataKey], &val); err != nil {
		return nil, reconcile.TerminalError(fmt.Errorf("exports of deploy item %s are not JSON: %w", di.Name, err))
	}
	return val, nil
}

// writeExportDataObject stores exports in the execution's export DataObject.
func (c *Controller) writeExportDataObject(ctx context.Context, exec *lsv1alpha1.Execution, exports map[string]any) error {
	src := helper.DataObjectSourceFromExecution(exec)
	name := helper.GenerateDataObjectName(src, "")
	data, err := json.Marshal(exports)
	if err != nil {
		return err
	}
	do := &lsv1alpha1.DataObject{}
	key := types.NamespacedName{Namespace: exec.Namespace, Name: name}
	err = c.cfg.Cluster.Get(ctx, key, do)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	do.Name, do.Namespace = name, exec.Namespace
	do.Labels = map[string]string{lsv1alpha1.DataObjectContextLabel: src, lsv1alpha1.DataObjectSourceLabel: src}
	do.OwnerReferences = []metav1.OwnerReference{dataflow.ControllerRef(exec, "Execution")}
	do.Data = lsv1alpha1.NewAnyJSON(data)
	if apierrors.IsNotFound(err) {
		err = c.cfg.Cluster.Create(ctx, do)
	} else {
		err = c.cfg.Cluster.Update(ctx, do)
	}
	if err != nil {
		return fmt.Errorf("write export data object: %w", err)
	}
	exec.Status.ExportReference = &lsv1alpha1.ObjectReference{Name: name, Namespace: exec.Namespace}
	return nil
}
