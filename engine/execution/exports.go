package execution

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/internal/semantic"
	"github.com/lscli/lscli/landscaper/template"
	"github.com/lscli/lscli/reconcile"
)

// opExports is the operation of the Completing phase's errors.
const opExports = "CollectAndUpdateExports"

// collectExports is the Completing phase, as Landscaper's
// CollectAndUpdateExports: the exports of every template's deploy item, in
// template order, go into one DataObject keyed by template name, which
// status.exportRef names. An item's exports (its export Secret, key config)
// must be a YAML or JSON object; an item without exports contributes null.
// Any error (a missing Secret, exports that are not an object) is returned
// for the caller to fail the execution.
func (c *Controller) collectExports(ctx context.Context, exec *lsv1alpha1.Execution) error {
	items, _, err := c.listExecutionItems(ctx, exec, true, nil) // only read
	if err != nil {
		return err
	}
	values := map[string]any{}
	for _, it := range items {
		data, err := c.itemExports(ctx, it.di)
		if err != nil {
			return reconcile.Wrap(err, opExports, "AddExports")
		}
		values[it.name] = data
	}
	if err := c.writeExportDataObject(ctx, exec, values); err != nil {
		return reconcile.Wrap(err, opExports, "CreateOrUpdateExportReference")
	}
	return nil
}

// itemExports reads the exports a deployer wrote for di as a map, or nil if
// there are none.
func (c *Controller) itemExports(ctx context.Context, di *lsv1alpha1.DeployItem) (map[string]any, error) {
	if di == nil || di.Status.ExportReference == nil {
		return nil, nil
	}
	ref := di.Status.ExportReference
	secret := &corev1.Secret{} // only read: its data is decoded into new values
	if err := c.cfg.Cluster.GetUnsafe(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, secret); err != nil {
		return nil, err
	}
	// Decoded as sigs.k8s.io/yaml does, as Landscaper does; the same
	// exports of a blueprint rolled out many times are decoded once.
	var data map[string]any
	if err := template.DecodeYAML(secret.Data[lsv1alpha1.DataObjectSecretDataKey], &data); err != nil {
		return nil, err
	}
	return data, nil
}

// writeExportDataObject stores values in the execution's export DataObject
// as Landscaper's CreateOrUpdateExportReference does: indented JSON, context
// and source labels Exec.<name>, the hash annotation, and a plain (not
// controller) owner reference to the execution.
func (c *Controller) writeExportDataObject(ctx context.Context, exec *lsv1alpha1.Execution, values map[string]any) error {
	src := helper.DataObjectSourceFromExecution(exec)
	name := helper.GenerateDataObjectName(src, "")
	data, err := json.MarshalIndent(values, "", "  ")
	if err != nil {
		return err
	}
	do := &lsv1alpha1.DataObject{}
	err = c.cfg.Cluster.Get(ctx, types.NamespacedName{Namespace: exec.Namespace, Name: name}, do)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	exists := err == nil
	var before *lsv1alpha1.DataObject
	if exists {
		before = do.DeepCopy()
	}
	do.Name, do.Namespace = name, exec.Namespace
	setExportMeta(do, src, data)
	setOwnerReference(do, exec)
	if !exists || !sameJSON(do.Data.RawMessage, data) {
		do.Data = lsv1alpha1.NewAnyJSON(data)
	}
	switch {
	case !exists:
		err = c.cfg.Cluster.Create(ctx, do)
	case !semantic.DeepEqual(before, do):
		err = c.cfg.Cluster.Update(ctx, do)
	}
	if err != nil {
		return fmt.Errorf("write export data object: %w", err)
	}
	exec.Status.ExportReference = &lsv1alpha1.ObjectReference{Name: name, Namespace: exec.Namespace}
	return nil
}

// sameJSON reports whether a and b are the same JSON text but for white
// space (a saved state keeps JSON compact).
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// setExportMeta sets the data labels (context and source src, the others
// removed) and the hash annotation of the execution's export DataObject.
func setExportMeta(do *lsv1alpha1.DataObject, src string, data []byte) {
	for _, l := range []string{lsv1alpha1.DataObjectSourceTypeLabel, lsv1alpha1.DataObjectKeyLabel, lsv1alpha1.DataObjectIndexLabel,
		lsv1alpha1.DataObjectTargetMapKeyLabel, lsv1alpha1.DataObjectJobIDLabel} {
		delete(do.Labels, l)
	}
	metav1.SetMetaDataLabel(&do.ObjectMeta, lsv1alpha1.DataObjectContextLabel, src)
	metav1.SetMetaDataLabel(&do.ObjectMeta, lsv1alpha1.DataObjectSourceLabel, src)
	sum := sha1.Sum(data)
	metav1.SetMetaDataAnnotation(&do.ObjectMeta, lsv1alpha1.DataObjectHashAnnotation, hex.EncodeToString(sum[:]))
}

// setOwnerReference adds a plain owner reference to exec, replacing one to
// the same object, as controller-runtime's SetOwnerReference does.
func setOwnerReference(do *lsv1alpha1.DataObject, exec *lsv1alpha1.Execution) {
	ref := metav1.OwnerReference{APIVersion: lsv1alpha1.SchemeGroupVersion.String(), Kind: "Execution", Name: exec.Name, UID: exec.UID}
	for i, r := range do.OwnerReferences {
		if r.Kind == ref.Kind && r.Name == ref.Name {
			do.OwnerReferences[i] = ref
			return
		}
	}
	do.OwnerReferences = append(do.OwnerReferences, ref)
}
