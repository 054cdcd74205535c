package dataflow

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// internalExports returns what export executions see under values:
// deployitems, dataobjects and targets.
func internalExports(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation) (map[string]any, error) {
	di, err := deployItemExports(ctx, r, inst)
	if err != nil {
		return nil, err
	}
	dos, err := contextDataObjects(ctx, r, inst)
	if err != nil {
		return nil, err
	}
	tgts, err := contextTargets(ctx, r, inst)
	if err != nil {
		return nil, err
	}
	return map[string]any{"deployitems": di, "dataobjects": dos, "targets": tgts}, nil
}

// deployItemExports reads the exports of inst's deploy items: the
// DataObject that the Execution's status.exportRef names, a map from deploy
// item name to its exports. No Execution or no exportRef means none.
func deployItemExports(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation) (map[string]any, error) {
	exec := &lsv1alpha1.Execution{} // only read
	err := r.GetUnsafe(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}, exec)
	if apierrors.IsNotFound(err) || (err == nil && (!metav1.IsControlledBy(exec, inst) || exec.Status.ExportReference == nil)) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, about(inst, err, "get execution: %w", err)
	}
	ref := exec.Status.ExportReference
	do := &lsv1alpha1.DataObject{} // only read: decodeRaw hands out copies
	if err := r.GetUnsafe(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: ref.Name}, do); err != nil {
		return nil, about(inst, err, "read the exports of execution %s (DataObject %s): %w", exec.Name, ref.Name, err)
	}
	v, err := decodeRaw(do.Data.RawMessage)
	if err != nil {
		return nil, about(inst, err, "DataObject %s: %w", do.Name, err)
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// contextDataObjects returns the DataObjects in inst's own context by key.
func contextDataObjects(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation) (map[string]any, error) {
	list := &lsv1alpha1.DataObjectList{} // only read: decodeRaw hands out copies
	if err := r.ListUnsafe(ctx, list, inContext(inst)); err != nil {
		return nil, about(inst, err, "list DataObjects of context %s: %w", OwnContext(inst), err)
	}
	out := map[string]any{}
	for _, do := range list.Items {
		v, err := decodeRaw(do.Data.RawMessage)
		if err != nil {
			return nil, about(inst, err, "DataObject %s: %w", do.Name, err)
		}
		out[do.Labels[lsv1alpha1.DataObjectKeyLabel]] = v
	}
	return out, nil
}

// contextTargets returns the Targets in inst's own context by key.
func contextTargets(ctx context.Context, r fakecluster.Reader, inst *lsv1alpha1.Installation) (map[string]any, error) {
	list := &lsv1alpha1.TargetList{} // only read: targetValue converts a copy
	if err := r.ListUnsafe(ctx, list, inContext(inst)); err != nil {
		return nil, about(inst, err, "list Targets of context %s: %w", OwnContext(inst), err)
	}
	out := map[string]any{}
	for i := range list.Items {
		v, err := targetValue(&list.Items[i])
		if err != nil {
			return nil, err
		}
		out[list.Items[i].Labels[lsv1alpha1.DataObjectKeyLabel]] = v
	}
	return out, nil
}

// inContext selects the objects of inst's own context.
func inContext(inst *lsv1alpha1.Installation) fakecluster.ListOptions {
	return fakecluster.ListOptions{Namespace: inst.Namespace,
		LabelSelector: labels.SelectorFromSet(labels.Set{lsv1alpha1.DataObjectContextLabel: OwnContext(inst)})}
}
