package execution

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/semantic"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// deployItems returns the deploy items managed by exec, by template name.
func (c *Controller) deployItems(ctx context.Context, exec *lsv1alpha1.Execution) (map[string]*lsv1alpha1.DeployItem, error) {
	return c.listDeployItems(ctx, exec, false)
}

// managedDeployItems returns every deploy item exec manages (label
// execution.landscaper.gardener.cloud/managed-by), also several with the
// same template name, as Landscaper's ListManagedDeployItems without a
// cache finds them; view gives read-only items (see listDeployItems).
func (c *Controller) managedDeployItems(ctx context.Context, exec *lsv1alpha1.Execution, view bool) ([]*lsv1alpha1.DeployItem, error) {
	sel := labels.SelectorFromSet(labels.Set{lsv1alpha1.ExecutionManagedByLabel: exec.Name})
	opts := fakecluster.ListOptions{Namespace: exec.Namespace, LabelSelector: sel}
	found, err := fakecluster.Select[*lsv1alpha1.DeployItem](ctx, c.cfg.Cluster, &lsv1alpha1.DeployItemList{}, opts, view)
	if err != nil {
		return nil, fmt.Errorf("list deploy items: %w", err)
	}
	return found, nil
}

// listDeployItems is deployItems; view gives the stored items themselves
// (fakecluster's Select), read-only: copy an item before changing it. Of
// several items with the same template name, the first the API server lists
// (by object name) is the template's, as in Landscaper's getExecutionItems.
func (c *Controller) listDeployItems(ctx context.Context, exec *lsv1alpha1.Execution, view bool) (map[string]*lsv1alpha1.DeployItem, error) {
	found, err := c.managedDeployItems(ctx, exec, view)
	if err != nil {
		return nil, err
	}
	return byTemplateName(found), nil
}

// byTemplateName maps each template name (the label
// execution.landscaper.gardener.cloud/name) to the first of found with it.
func byTemplateName(found []*lsv1alpha1.DeployItem) map[string]*lsv1alpha1.DeployItem {
	out := make(map[string]*lsv1alpha1.DeployItem, len(found))
	for _, di := range found {
		name := di.Labels[lsv1alpha1.ExecutionManagedNameLabel]
		if _, dup := out[name]; !dup {
			out[name] = di
		}
	}
	return out
}

// executionItems returns one item per template of exec, in template order
// (di nil when it does not exist), and the orphans, by name: managed deploy
// items without a template, and, as Landscaper's getExecutionItems has it,
// every item with a template's name but the first (see listDeployItems).
func (c *Controller) executionItems(ctx context.Context, exec *lsv1alpha1.Execution) (items, orphans []item, err error) {
	return c.listExecutionItems(ctx, exec, false, exec.Status.DeployItemCache)
}

// listExecutionItems is executionItems; view gives read-only items (see
// listDeployItems). The orphans are in the order cache gives them (see
// orderOrphans).
func (c *Controller) listExecutionItems(ctx context.Context, exec *lsv1alpha1.Execution, view bool, cache *lsv1alpha1.DeployItemCache) (items, orphans []item, err error) {
	found, err := c.managedDeployItems(ctx, exec, view)
	if err != nil {
		return nil, nil, reconcile.Wrap(err, "getDeployItems", "ListManagedDeployItems")
	}
	byTemplate := byTemplateName(found)
	used := make(map[*lsv1alpha1.DeployItem]bool, len(exec.Spec.DeployItems))
	for _, tmpl := range exec.Spec.DeployItems {
		di := byTemplate[tmpl.Name]
		items = append(items, item{name: tmpl.Name, dependsOn: tmpl.DependsOn, di: di})
		if di != nil {
			used[di] = true
		}
	}
	for _, di := range found {
		if !used[di] {
			orphans = append(orphans, item{name: di.Name, di: di})
		}
	}
	orderOrphans(orphans, cache)
	return items, orphans, nil
}

// orderOrphans sorts orphans as Landscaper's ListManagedDeployItems lists
// them: with a cache, its orphanedDIs first, then its activeDIs, each in
// the cache's order; without one (nil), in the order the API server lists
// them, by name. Orphans the cache does not name (lscli finds items by
// label, Landscaper through the cache, see docs/semantics.md) follow, by
// name.
func orderOrphans(orphans []item, cache *lsv1alpha1.DeployItemCache) {
	if len(orphans) < 2 {
		return // nearly every look: no order to find, no map to build
	}
	rank := map[string]int{}
	if cache != nil {
		for _, n := range cache.OrphanedDIs {
			if _, ok := rank[n]; !ok {
				rank[n] = len(rank)
			}
		}
		for _, p := range cache.ActiveDIs {
			if _, ok := rank[p.ObjectName]; !ok {
				rank[p.ObjectName] = len(rank)
			}
		}
	}
	pos := func(it item) int {
		if r, ok := rank[it.name]; ok {
			return r
		}
		return len(rank)
	}
	sort.SliceStable(orphans, func(i, j int) bool {
		if pi, pj := pos(orphans[i]), pos(orphans[j]); pi != pj {
			return pi < pj
		}
		return orphans[i].name < orphans[j].name
	})
}

// updateDeployItems is the Init phase, as Landscaper's UpdateDeployItems:
// delete orphaned items, create or update one item per template, and record
// them in status.deployItemCache. Orphans are deleted and recorded in the
// order of the cache of the job before (see startCache).
func (c *Controller) updateDeployItems(ctx context.Context, exec *lsv1alpha1.Execution) error {
	items, orphans, err := c.listExecutionItems(ctx, exec, false, c.takeStartCache(exec))
	if err != nil {
		return err
	}
	cache := &lsv1alpha1.DeployItemCache{}
	for _, o := range orphans {
		cache.OrphanedDIs = append(cache.OrphanedDIs, o.di.Name)
		if o.di.DeletionTimestamp != nil {
			continue
		}
		if err := c.cfg.Cluster.Delete(ctx, o.di); err != nil {
			return reconcile.Wrap(fmt.Errorf("unable to delete deploy item %s: %w", o.di.Name, err), "UpdateDeployItems", "CleanupOrphanedDeployItems")
		}
	}
	for i, it := range items {
		di, err := c.applyTemplate(ctx, exec, exec.Spec.DeployItems[i], it.di)
		if err != nil {
			return err
		}
		cache.ActiveDIs = append(cache.ActiveDIs, lsv1alpha1.DiNamePair{SpecName: it.name, ObjectName: di.Name})
	}
	exec.Status.DeployItemCache = cache
	return nil
}

// Landscaper's write ID of a deploy item's CreateOrUpdate (the execution
// operation's updateDeployItem), which its read_write_layer puts in the
// message of a failed write.
const writeDeployItem = "W000036"

// applyTemplate creates the deploy item of tmpl, or updates di to match it
// and makes exec its controller, as controller-runtime's
// SetControllerReference does: an item without a controller is taken over,
// one controlled by another object is an error (AlreadyOwnedError) and is
// not written.
func (c *Controller) applyTemplate(ctx context.Context, exec *lsv1alpha1.Execution, tmpl lsv1alpha1.DeployItemTemplate, di *lsv1alpha1.DeployItem) (*lsv1alpha1.DeployItem, error) {
	clusterName, err := c.shootClusterName(ctx, exec, tmpl)
	if err != nil {
		return nil, err
	}
	create := di == nil
	if create {
		di = &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{
			GenerateName:    fmt.Sprintf("%s-%s-", exec.Name, tmpl.Name),
			Namespace:       exec.Namespace,
			OwnerReferences: []metav1.OwnerReference{dataflow.ControllerRef(exec, "Execution")},
			Finalizers:      []string{lsv1alpha1.LandscaperFinalizer},
		}}
	}
	var before *lsv1alpha1.DeployItem
	if !create {
		before = di.DeepCopy()
	}
	setDeployItemFromTemplate(di, exec, tmpl, c.cfg.Clock.Now())
	if clusterName != "" {
		metav1.SetMetaDataAnnotation(&di.ObjectMeta, clusterNameAnnotation, clusterName)
	}
	if create {
		if err := c.cfg.Cluster.Create(ctx, di); err != nil {
			return nil, reconcile.Wrap(writeError(err), "updateDeployItem", fmt.Sprintf("error while creating deployitem %q", tmpl.Name))
		}
		return di, nil
	}
	// Landscaper's mutate function ends with SetControllerReference: an item
	// found by its labels that nothing controls is taken over, one that
	// another object controls is not written.
	if err := flow.SetController(exec, di, c.cfg.Cluster.Scheme(), writeDeployItem, ""); err != nil {
		return nil, reconcile.Wrap(err, "updateDeployItem", fmt.Sprintf("error while triggering deployitem %s", di.Name))
	}
	if !semantic.DeepEqual(before.Spec, di.Spec) || !semantic.DeepEqual(before.ObjectMeta, di.ObjectMeta) {
		// The API server refuses a new type (Landscaper's deploy item
		// webhook, see package landscaper/webhook).
		if err := c.cfg.Cluster.Update(ctx, di); err != nil {
			return nil, reconcile.Wrap(writeError(err), "updateDeployItem", fmt.Sprintf("error while triggering deployitem %s", di.Name))
		}
	}
	return di, nil
}

// writeError is a refused create or update of a deploy item as Landscaper's
// read_write_layer returns it (errorWithWriteID): "write operation W000036
// failed with <the API server's error>", so that the execution's lastError
// shows that text as its message.
func writeError(err error) error {
	return reconcile.WithWriteID(err, writeDeployItem)
}

// setDeployItemFromTemplate sets spec, labels and annotations of di as
// Landscaper's ApplyDeployItemTemplate does in every execution Init: the
// reconcile-time annotation is refreshed, the dependsOn annotation is always
// set (empty without dependencies), labels of the template are added (never
// removed), and cache-helm-charts follows the execution's.
func setDeployItemFromTemplate(di *lsv1alpha1.DeployItem, exec *lsv1alpha1.Execution, tmpl lsv1alpha1.DeployItemTemplate, now time.Time) {
	metav1.SetMetaDataAnnotation(&di.ObjectMeta, lsv1alpha1.ReconcileTimestampAnnotation, now.UTC().Format(time.RFC3339))
	di.Spec.Type = tmpl.Type
	di.Spec.Target = tmpl.Target
	di.Spec.Configuration = tmpl.Configuration
	di.Spec.Timeout = tmpl.Timeout
	di.Spec.UpdateOnChangeOnly = tmpl.UpdateOnChangeOnly
	di.Spec.OnDelete = tmpl.OnDelete
	for k, v := range tmpl.Labels {
		metav1.SetMetaDataLabel(&di.ObjectMeta, k, v)
	}
	metav1.SetMetaDataLabel(&di.ObjectMeta, lsv1alpha1.ExecutionManagedNameLabel, tmpl.Name)
	metav1.SetMetaDataAnnotation(&di.ObjectMeta, lsv1alpha1.ExecutionDependsOnAnnotation, strings.Join(tmpl.DependsOn, ","))
	metav1.SetMetaDataAnnotation(&di.ObjectMeta, lsv1alpha1.DeployerTypeAnnotation, string(tmpl.Type))
	targetName := lsv1alpha1.NoTargetNameValue
	if tmpl.Target != nil && tmpl.Target.Name != "" {
		targetName = tmpl.Target.Name
	}
	metav1.SetMetaDataAnnotation(&di.ObjectMeta, lsv1alpha1.DeployerTargetNameAnnotation, targetName)
	metav1.SetMetaDataLabel(&di.ObjectMeta, lsv1alpha1.ExecutionManagedByLabel, exec.Name)
	di.Spec.Context = exec.Spec.Context
	delete(di.Annotations, lsv1alpha1.CacheHelmChartsAnnotation)
	if lshelper.HasCacheHelmChartsAnnotation(&exec.ObjectMeta) {
		metav1.SetMetaDataAnnotation(&di.ObjectMeta, lsv1alpha1.CacheHelmChartsAnnotation, "true")
	}
}
