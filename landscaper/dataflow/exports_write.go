package dataflow

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lscli/lscli/fakecluster"
)

// WriteExports writes the exports of inst into its context (the parent's
// "Inst.<parent>", or "" for a root, where an object's name is the plain
// dataRef or target): a DataObject per data export and a Target per target
// export, labelled with context, source "Inst.<name>", sourceType=export,
// key (the dataRef or target) and jobid, with an owner reference to inst.
// An object of the same name that another installation exported is an
// error (a *WriteError, as every failed write).
func WriteExports(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, exps *Exports) error {
	base := meta{context: ContextOf(inst), source: OwnContext(inst), jobID: inst.Status.JobID,
		sourceType: lsv1alpha1.ExportDataObjectSourceType}
	for _, d := range exps.Data {
		m := base
		m.key = d.DataRef
		name := ObjectName(m.context, d.DataRef)
		if err := writeDataObject(ctx, c, inst, name, d.Value, m, true); err != nil {
			e := about(inst, err, "write data export %q (dataRef %q): %w", d.Name, d.DataRef, err)
			e.Landscaper = landscaperConflictText(err, "data object", "W000068", name, d.DataRef)
			return &WriteError{Export: true, Type: lsv1alpha1.ImportTypeData, Key: d.DataRef, Err: e}
		}
	}
	for _, t := range exps.Targets {
		m := base
		m.key = t.Target
		tgt := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Labels: t.Value.Labels, Annotations: t.Value.Annotations},
			Spec: t.Value.TargetSpec}
		name := ObjectName(m.context, t.Target)
		if err := writeTarget(ctx, c, inst, name, tgt, m, true); err != nil {
			e := about(inst, err, "write target export %q (target %q): %w", t.Name, t.Target, err)
			e.Landscaper = landscaperConflictText(err, "target", "W000069", name, t.Target)
			return &WriteError{Export: true, Type: lsv1alpha1.ImportTypeTarget, Key: t.Target, Err: e}
		}
	}
	return nil
}

// CleanupExports deletes the DataObjects and Targets that inst exported
// earlier (source "Inst.<name>", sourceType export), as Landscaper does at
// the start of Init.
func CleanupExports(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation) error {
	sel := labels.SelectorFromSet(labels.Set{lsv1alpha1.DataObjectSourceLabel: OwnContext(inst),
		lsv1alpha1.DataObjectSourceTypeLabel: string(lsv1alpha1.ExportDataObjectSourceType)})
	return deleteSelected(ctx, c, inst, sel, "")
}

// CleanupContext deletes the DataObjects and Targets in inst's own context
// "Inst.<name>" whose jobid label is not inst's current job, as Landscaper
// does in Completing. As there, it deletes nothing while no object of the
// context has a jobid label at all (CheckIfNewContextDeletion).
func CleanupContext(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation) error {
	sel := labels.SelectorFromSet(labels.Set{lsv1alpha1.DataObjectContextLabel: OwnContext(inst)})
	return deleteSelected(ctx, c, inst, sel, inst.Status.JobID)
}

// deleteSelected deletes the DataObjects and Targets matching sel in inst's
// namespace. With a jobID, it keeps those labelled with it, and deletes
// nothing when none of them has a jobid label.
func deleteSelected(ctx context.Context, c fakecluster.Client, inst *lsv1alpha1.Installation, sel labels.Selector, jobID string) error {
	opts := fakecluster.ListOptions{Namespace: inst.Namespace, LabelSelector: sel}
	// Only read: Delete takes the kind and name, most are kept.
	dos := &lsv1alpha1.DataObjectList{}
	if err := c.ListUnsafe(ctx, dos, opts); err != nil {
		return about(inst, err, "list DataObjects: %w", err)
	}
	tgts := &lsv1alpha1.TargetList{}
	if err := c.ListUnsafe(ctx, tgts, opts); err != nil {
		return about(inst, err, "list Targets: %w", err)
	}
	var objs []fakecluster.Object
	for i := range dos.Items {
		objs = append(objs, &dos.Items[i])
	}
	for i := range tgts.Items {
		objs = append(objs, &tgts.Items[i])
	}
	if jobID != "" && !anyJobIDLabel(objs) {
		return nil
	}
	for _, o := range objs {
		if jobID != "" && o.GetLabels()[lsv1alpha1.DataObjectJobIDLabel] == jobID {
			continue
		}
		if err := c.Delete(ctx, o); err != nil && !isNotFound(err) {
			return about(inst, err, "delete %s: %w", o.GetName(), err)
		}
	}
	return nil
}

// anyJobIDLabel reports whether one of objs has a jobid label.
func anyJobIDLabel(objs []fakecluster.Object) bool {
	for _, o := range objs {
		if _, ok := o.GetLabels()[lsv1alpha1.DataObjectJobIDLabel]; ok {
			return true
		}
	}
	return false
}
