package installation

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/internal/semantic"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// existingSubinstallations returns the subinstallations of inst, found
// through cache (see Controller.initCache), and them by template name (the
// subinstallation-name annotation): in Landscaper, a subinstallation the
// cache does not name is neither updated nor an orphan, and its template
// gets a new one. As Landscaper's GetSubInstallations, which its
// subinstallation step calls before it reads the templates, a
// subinstallation without the annotation is an error
// (DanglingSubinstallation): no template can be told for it, so it is
// neither updated nor an orphan.
func (c *Controller) existingSubinstallations(ctx context.Context, inst *lsv1alpha1.Installation, cache *lsv1alpha1.SubInstCache) ([]*lsv1alpha1.Installation, map[string]*lsv1alpha1.Installation, error) {
	subs, err := c.listSubinstallations(ctx, inst, cache, false)
	if err != nil {
		return nil, nil, err
	}
	existing := map[string]*lsv1alpha1.Installation{}
	for _, s := range subs {
		name, ok := s.Annotations[lsv1alpha1.SubinstallationNameAnnotation]
		if !ok {
			msg := "dangling installation found " + s.Name
			return nil, nil, reconcile.NewError(opEnsureSubinstallations, "DanglingSubinstallation", msg)
		}
		existing[name] = s
	}
	return subs, existing, nil
}

// ensureSubinstallations deletes the orphans among subs (no template any
// more) with the delete-ignore-successors annotation, then, with apply,
// creates a subinstallation per template and updates the existing ones (by
// template name, see existingSubinstallations), in the order of the
// templates. It records them in status.subInstCache (orphans first, then
// the templates in order). As in Landscaper, a template whose
// subinstallation is still being deleted (an orphan whose deletion failed,
// its template back) is an error, at that template: the ones before it are
// applied.
func (c *Controller) ensureSubinstallations(ctx context.Context, inst *lsv1alpha1.Installation, subs []*lsv1alpha1.Installation, existing map[string]*lsv1alpha1.Installation, bp *blueprint.Blueprint, tree *components.Tree, templates []*lsv1alpha1.InstallationTemplate, apply bool) error {
	next := &lsv1alpha1.SubInstCache{}
	wanted := map[string]bool{}
	for _, tmpl := range templates {
		wanted[tmpl.Name] = true
	}
	for _, s := range subs {
		if wanted[s.Annotations[lsv1alpha1.SubinstallationNameAnnotation]] {
			continue
		}
		next.OrphanedSubs = append(next.OrphanedSubs, s.Name)
		if err := c.deleteOrphan(ctx, s); err != nil {
			return err
		}
	}
	if !apply {
		templates = nil
	}
	for _, tmpl := range templates {
		if sub := existing[tmpl.Name]; sub != nil && sub.DeletionTimestamp != nil {
			return fmt.Errorf("an installation %s should be created which is currently under deletion", sub.Name)
		}
		spec, err := dataflow.SubinstallationSpec(inst, bp, tree, tmpl, c.cfg.Blueprints)
		if err != nil {
			// Landscaper's createOrUpdateSubinstallations wraps what
			// createOrUpdateNewInstallation returns.
			return reconcile.WrapError(err, opEnsureSubinstallations, "CreateOrUpdateInstallation", "unable to create installation for "+tmpl.Name)
		}
		sub, err := c.applySubinstallation(ctx, inst, tmpl, spec, existing[tmpl.Name])
		if err != nil {
			return err
		}
		next.ActiveSubs = append(next.ActiveSubs, lsv1alpha1.SubNamePair{SpecName: tmpl.Name, ObjectName: sub.Name})
	}
	inst.Status.SubInstCache = next
	return c.cfg.Cluster.UpdateStatus(ctx, inst)
}

// deleteOrphan marks sub with delete-ignore-successors and deletes it; its
// deletion flow starts in CleanupOrphaned, when it gets the job ID. As in
// Landscaper, an orphan already being deleted (by hand, or in an earlier
// job) gets the annotation too.
func (c *Controller) deleteOrphan(ctx context.Context, sub *lsv1alpha1.Installation) error {
	if err := flow.Annotate(ctx, c.cfg.Cluster, sub, lsv1alpha1.DeleteIgnoreSuccessors, "true"); err != nil {
		return fmt.Errorf("mark orphaned subinstallation %s: %w", sub.Name, err)
	}
	if sub.DeletionTimestamp != nil {
		return nil
	}
	if err := c.cfg.Cluster.Delete(ctx, sub); err != nil {
		return fmt.Errorf("delete orphaned subinstallation %s: %w", sub.Name, err)
	}
	return nil
}

// applySubinstallation creates the subinstallation of tmpl (with its
// finalizer), or updates sub, with inst as its controller
// (flow.SetController; another controller is Landscaper's error, see
// subinstallationOwned). As Landscaper does on every Init, labels and
// annotations are replaced as a whole: label encompassed-by, annotation
// subinstallation-name and, if the parent has it, cache-helm-charts; any
// other (a touch left behind, for one) is dropped.
func (c *Controller) applySubinstallation(ctx context.Context, inst *lsv1alpha1.Installation, tmpl *lsv1alpha1.InstallationTemplate, spec lsv1alpha1.InstallationSpec, sub *lsv1alpha1.Installation) (*lsv1alpha1.Installation, error) {
	if sub == nil {
		sub = dataflow.NewSubinstallation(inst, tmpl, spec)
		if err := c.cfg.Cluster.Create(ctx, sub); err != nil {
			return nil, subinstallationWriteError(tmpl, err)
		}
		return sub, nil
	}
	want := dataflow.NewSubinstallation(inst, tmpl, spec)
	owners := sub.DeepCopy().OwnerReferences
	if err := flow.SetController(inst, sub, c.cfg.Cluster.Scheme(), writeSubinstallation, "unable to set owner reference"); err != nil {
		return nil, c.subinstallationOwned(inst, tmpl, err)
	}
	if semantic.DeepEqual(sub.Spec, spec) && semantic.DeepEqual(sub.Labels, want.Labels) &&
		semantic.DeepEqual(sub.Annotations, want.Annotations) && semantic.DeepEqual(sub.OwnerReferences, owners) {
		return sub, nil
	}
	sub.Spec, sub.Labels, sub.Annotations = spec, want.Labels, want.Annotations
	if err := c.cfg.Cluster.Update(ctx, sub); err != nil {
		return nil, subinstallationWriteError(tmpl, err)
	}
	return sub, nil
}

// Landscaper's write ID of a subinstallation's CreateOrUpdate
// (subinstallations.Operation.createOrUpdateNewInstallation).
const writeSubinstallation = "W000001"

// subinstallationWriteError is a refused create or update of the
// subinstallation of tmpl (the API server's error err) as Landscaper's
// createOrUpdateSubinstallations returns it: the read_write_layer's
// errorWithWriteID, wrapped with reason CreateOrUpdateInstallation.
func subinstallationWriteError(tmpl *lsv1alpha1.InstallationTemplate, err error) error {
	write := reconcile.WithWriteID(err, writeSubinstallation)
	return reconcile.WrapError(write, opEnsureSubinstallations, "CreateOrUpdateInstallation",
		fmt.Sprintf("unable to create installation for %s: %s", tmpl.Name, write))
}

// subinstallationOwned returns Landscaper's error for the subinstallation of
// tmpl that another object controls (write, flow.SetController's error),
// with its nesting, and sets the condition EnsureSubInstallations False
// (InstallationCreatingFailed), as createOrUpdateNewInstallation does.
func (c *Controller) subinstallationOwned(inst *lsv1alpha1.Installation, tmpl *lsv1alpha1.InstallationTemplate, write error) error {
	c.setCondition(inst, lsv1alpha1.EnsureSubInstallationsCondition, lsv1alpha1.ConditionFalse,
		"InstallationCreatingFailed", fmt.Sprintf("Sub Installation %s cannot be created", tmpl.Name))
	msg := fmt.Sprintf("unable to create installation for %[1]s: unable to create installation for %[1]s: %[2]s", tmpl.Name, write)
	return reconcile.WrapError(write, opEnsureSubinstallations, "CreateOrUpdateInstallation", msg)
}

// cleanupOrphaned is the CleanupOrphaned phase, as Landscaper's: orphaned
// subinstallations (being deleted) get the job ID, which starts their
// deletion; it waits (a normal error, "some orphaned subinstallations are
// still deleting") until they are gone, then clears the orphans from
// status.subInstCache and moves to ObjectsCreated. When all that remain
// failed their deletion in this job: Failed. As in Landscaper, handing an
// orphan the job ID resets the transition times of the parent (not of the
// orphan) to a new triggerTime.
func (c *Controller) cleanupOrphaned(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	const op = "handlePhaseCleanupOrphaned"
	subs, err := c.subinstallations(ctx, inst)
	if err != nil {
		return "", reconcile.Wrap(err, op, "ListSubinstallations")
	}
	var deleting []*lsv1alpha1.Installation
	allFailed := true
	for _, s := range subs {
		if s.DeletionTimestamp == nil {
			continue
		}
		deleting = append(deleting, s)
		if s.Status.JobIDFinished != inst.Status.JobID || s.Status.InstallationPhase != lsv1alpha1.InstallationPhases.DeleteFailed {
			allFailed = false
		}
	}
	if len(deleting) == 0 {
		if inst.Status.SubInstCache != nil {
			inst.Status.SubInstCache.OrphanedSubs = nil
		}
		return lsv1alpha1.InstallationPhases.ObjectsCreated, nil
	}
	if allFailed {
		return "", reconcile.Fatal(reconcile.NewError(op, "AllOrphanedSubinstallationsFailed", "all orphaned subinstallations failed"))
	}
	for _, s := range deleting {
		if s.Status.JobID == inst.Status.JobID {
			continue
		}
		s.Status.JobID = inst.Status.JobID
		now := metav1.NewTime(c.cfg.Clock.Now())
		inst.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{TriggerTime: &now}
		if err := c.cfg.Cluster.UpdateStatus(ctx, s); err != nil {
			return "", reconcile.Wrap(err, op, "UpdateInstallationStatus")
		}
	}
	return "", reconcile.NewError(op, "OrphanedSubinstsStillDeleting", "some orphaned subinstallations are still deleting")
}
