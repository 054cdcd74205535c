package execution

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// deployItems returns the deploy items managed by exec, by template name.
func (c *Controller) deployItems(ctx context.Context, exec *lsv1alpha1.Execution) (map[string]*lsv1alpha1.DeployItem, error) {
	list := &lsv1alpha1.DeployItemList{}
	sel := labels.SelectorFromSet(labels.Set{lsv1alpha1.ExecutionManagedByLabel: exec.Name})
	if err := c.cfg.Cluster.List(ctx, list, fakecluster.ListOptions{Namespace: exec.Namespace, LabelSelector: sel}); err != nil {
		return nil, fmt.Errorf("list deploy items: %w", err)
	}
	out := make(map[string]*lsv1alpha1.DeployItem, len(list.Items))
	for i := range list.Items {
		di := &list.Items[i]
		out[di.Labels[lsv1alpha1.ExecutionManagedNameLabel]] = di
	}
	return out, nil
}

// updateDeployItems is the Init phase: delete orphaned items, create or update
// one item per template, and record them in status.deployItemCache.
func (c *Controller) updateDeployItems(ctx context.Context, exec *lsv1alpha1.Execution) error {
	items, err := c.deployItems(ctx, exec)
	if err != nil {
		return err
	}
	wanted := map[string]bool{}
	cache := &lsv1alpha1.DeployItemCache{}
	for _, tmpl := range exec.Spec.DeployItems {
		wanted[tmpl.Name] = true
		di, err := c.applyTemplate(ctx, exec, tmpl, items[tmpl.Name])
		if err != nil {
			return err
		}
		cache.ActiveDIs = append(cache.ActiveDIs, lsv1alpha1.DiNamePair{SpecName: tmpl.Name, ObjectName: di.Name})
	}
	for name, di := range items {
		if wanted[name] {
			continue
		}
		cache.OrphanedDIs = append(cache.OrphanedDIs, di.Name)
		if di.DeletionTimestamp == nil {
			if err := c.cfg.Cluster.Delete(ctx, di); err != nil {
				return fmt.Errorf("delete orphaned deploy item %s: %w", di.Name, err)
			}
		}
	}
	exec.Status.DeployItemCache = cache
	return c.cfg.Cluster.UpdateStatus(ctx, exec)
}

// applyTemplate creates the deploy item of tmpl, or updates di to match it.
func (c *Controller) applyTemplate(ctx context.Context, exec *lsv1alpha1.Execution, tmpl lsv1alpha1.DeployItemTemplate, di *lsv1alpha1.DeployItem) (*lsv1alpha1.DeployItem, error) {
	create := di == nil
	if create {
		di = &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{
			GenerateName:    fmt.Sprintf("%s-%s-", exec.Name, tmpl.Name),
			Namespace:       exec.Namespace,
			OwnerReferences: []metav1.OwnerReference{dataflow.ControllerRef(exec, "Execution")},
			Finalizers:      []string{lsv1alpha1.LandscaperFinalizer},
		}}
	}
	before := di.DeepCopy()
	setDeployItemFromTemplate(di, exec, tmpl, c.cfg.Clock.Now())
	switch {
	case create:
		if err := c.cfg.Cluster.Create(ctx, di); err != nil {
			return nil, fmt.Errorf("create deploy item %s: %w", tmpl.Name, err)
		}
	case !equality.Semantic.DeepEqual(before.Spec, di.Spec) || !equality.Semantic.DeepEqual(before.ObjectMeta, di.ObjectMeta):
		if err := c.cfg.Cluster.Update(ctx, di); err != nil {
			return nil, fmt.Errorf("update deploy item %s: %w", di.Name, err)
		}
	}
	return di, nil
}

// setDeployItemFromTemplate sets spec, labels and annotations of di as
// Landscaper's ApplyDeployItemTemplate does.
func setDeployItemFromTemplate(di *lsv1alpha1.DeployItem, exec *lsv1alpha1.Execution, tmpl lsv1alpha1.DeployItemTemplate, now time.Time) {
	if di.Labels == nil {
		di.Labels = map[string]string{}
	}
	for k, v := range tmpl.Labels {
		di.Labels[k] = v
	}
	di.Labels[lsv1alpha1.ExecutionManagedByLabel] = exec.Name
	di.Labels[lsv1alpha1.ExecutionManagedNameLabel] = tmpl.Name
	if di.Annotations == nil {
		di.Annotations = map[string]string{}
	}
	if len(tmpl.DependsOn) > 0 {
		di.Annotations[lsv1alpha1.ExecutionDependsOnAnnotation] = strings.Join(tmpl.DependsOn, ",")
	} else {
		delete(di.Annotations, lsv1alpha1.ExecutionDependsOnAnnotation)
	}
	di.Annotations[lsv1alpha1.DeployerTypeAnnotation] = string(tmpl.Type)
	targetName := lsv1alpha1.NoTargetNameValue
	if tmpl.Target != nil {
		targetName = tmpl.Target.Name
	}
	di.Annotations[lsv1alpha1.DeployerTargetNameAnnotation] = targetName
	if _, ok := di.Annotations[lsv1alpha1.ReconcileTimestampAnnotation]; !ok {
		di.Annotations[lsv1alpha1.ReconcileTimestampAnnotation] = now.UTC().Format(time.RFC3339)
	}
	di.Spec.Type = tmpl.Type
	di.Spec.Target = tmpl.Target
	di.Spec.Context = exec.Spec.Context
	di.Spec.Configuration = tmpl.Configuration
	di.Spec.Timeout = tmpl.Timeout
	di.Spec.UpdateOnChangeOnly = tmpl.UpdateOnChangeOnly
	di.Spec.OnDelete = tmpl.OnDelete
}

// sortedKeys returns the keys of m in order, so work is done in a stable order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
