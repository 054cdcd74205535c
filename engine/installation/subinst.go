package installation

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// subinstallations returns the subinstallations of inst by template name
// (annotation landscaper.gardener.cloud/subinstallation-name).
func (c *Controller) subinstallations(ctx context.Context, inst *lsv1alpha1.Installation) (map[string]*lsv1alpha1.Installation, error) {
	kids, err := c.children(ctx, inst)
	if err != nil {
		return nil, err
	}
	out := map[string]*lsv1alpha1.Installation{}
	for _, k := range kids {
		if sub, ok := k.obj.(*lsv1alpha1.Installation); ok {
			out[sub.Annotations[lsv1alpha1.SubinstallationNameAnnotation]] = sub
		}
	}
	return out, nil
}

// ensureSubinstallations creates a subinstallation per template, updates the
// existing ones, and deletes the orphans (no template any more) with the
// delete-ignore-successors annotation. It records them in status.subInstCache.
func (c *Controller) ensureSubinstallations(ctx context.Context, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, tree *components.Tree, templates []*lsv1alpha1.InstallationTemplate) error {
	existing, err := c.subinstallations(ctx, inst)
	if err != nil {
		return err
	}
	cache := &lsv1alpha1.SubInstCache{}
	wanted := map[string]bool{}
	for _, tmpl := range templates {
		wanted[tmpl.Name] = true
		spec, err := dataflow.SubinstallationSpec(inst, bp, tree, tmpl, c.cfg.Blueprints)
		if err != nil {
			return err
		}
		sub, err := c.applySubinstallation(ctx, inst, tmpl, spec, existing[tmpl.Name])
		if err != nil {
			return err
		}
		cache.ActiveSubs = append(cache.ActiveSubs, lsv1alpha1.SubNamePair{SpecName: tmpl.Name, ObjectName: sub.Name})
	}
	for name, sub := range existing {
		if wanted[name] {
			continue
		}
		cache.OrphanedSubs = append(cache.OrphanedSubs, sub.Name)
		if err := c.deleteOrphan(ctx, sub); err != nil {
			return err
		}
	}
	inst.Status.SubInstCache = cache
	return c.cfg.Cluster.UpdateStatus(ctx, inst)
}

// deleteOrphan marks sub with delete-ignore-successors and deletes it; its
// deletion flow starts in CleanupOrphaned, when it gets the job ID.
func (c *Controller) deleteOrphan(ctx context.Context, sub *lsv1alpha1.Installation) error {
	if sub.DeletionTimestamp != nil {
		return nil
	}
	if err := flow.Annotate(ctx, c.cfg.Cluster, sub, lsv1alpha1.DeleteIgnoreSuccessors, "true"); err != nil {
		return fmt.Errorf("mark orphaned subinstallation %s: %w", sub.Name, err)
	}
	if err := c.cfg.Cluster.Delete(ctx, sub); err != nil {
		return fmt.Errorf("delete orphaned subinstallation %s: %w", sub.Name, err)
	}
	return nil
}

// applySubinstallation creates the subinstallation of tmpl, or updates sub.
func (c *Controller) applySubinstallation(ctx context.Context, inst *lsv1alpha1.Installation, tmpl *lsv1alpha1.InstallationTemplate, spec lsv1alpha1.InstallationSpec, sub *lsv1alpha1.Installation) (*lsv1alpha1.Installation, error) {
	if sub == nil {
		sub = dataflow.NewSubinstallation(inst, tmpl, spec)
		if err := c.cfg.Cluster.Create(ctx, sub); err != nil {
			return nil, fmt.Errorf("create subinstallation %s: %w", tmpl.Name, err)
		}
		return sub, nil
	}
	if equality.Semantic.DeepEqual(sub.Spec, spec) {
		return sub, nil
	}
	sub.Spec = spec
	if err := c.cfg.Cluster.Update(ctx, sub); err != nil {
		return nil, fmt.Errorf("update subinstallation %s: %w", sub.Name, err)
	}
	return sub, nil
}

// cleanupOrphaned is the CleanupOrphaned phase: orphaned subinstallations get
// the job ID, which starts their deletion. It moves to ObjectsCreated when
// they are gone, to Failed when all that remain failed their deletion, and
// otherwise waits.
func (c *Controller) cleanupOrphaned(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	kids, err := c.children(ctx, inst)
	if err != nil {
		return "", err
	}
	now := metav1.NewTime(c.cfg.Clock.Now())
	remaining, unfinished := 0, 0
	for _, k := range kids {
		if k.kind != "Installation" || k.obj.GetDeletionTimestamp() == nil {
			continue
		}
		remaining++
		if k.status.JobID != inst.Status.JobID {
			flow.SetJobID(k.obj, inst.Status.JobID, now)
			if err := c.cfg.Cluster.UpdateStatus(ctx, k.obj); err != nil {
				return "", fmt.Errorf("trigger deletion of orphan %s: %w", k.obj.GetName(), err)
			}
		}
		if k.status.JobIDFinished != inst.Status.JobID {
			unfinished++
		}
	}
	switch {
	case remaining == 0:
		return lsv1alpha1.InstallationPhases.ObjectsCreated, nil
	case unfinished == 0:
		return "", reconcile.TerminalErrorf("OrphanDeletionFailed", "deletion of orphaned subinstallations failed")
	}
	return "", nil
}
