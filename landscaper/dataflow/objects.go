package dataflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/semantic"
)

// meta are the data labels of a DataObject or Target that an installation
// writes (data.landscaper.gardener.cloud/...).
type meta struct {
	context, source, key, jobID string
	sourceType                  lsv1alpha1.DataObjectSourceType
	index                       *int
	targetMapKey                *string
	hash                        string
}

// apply sets the data labels and the hash annotation on obj, removing the
// labels that meta leaves empty, as Landscaper does.
func (m meta) apply(obj metav1.Object) {
	l := obj.GetLabels()
	if l == nil {
		l = map[string]string{}
	}
	set := func(k, v string) {
		if v == "" {
			delete(l, k)
		} else {
			l[k] = v
		}
	}
	set(lsv1alpha1.DataObjectContextLabel, m.context)
	set(lsv1alpha1.DataObjectSourceTypeLabel, string(m.sourceType))
	set(lsv1alpha1.DataObjectSourceLabel, m.source)
	set(lsv1alpha1.DataObjectKeyLabel, m.key)
	set(lsv1alpha1.DataObjectIndexLabel, optional(m.index))
	set(lsv1alpha1.DataObjectTargetMapKeyLabel, optional(m.targetMapKey))
	set(lsv1alpha1.DataObjectJobIDLabel, m.jobID)
	obj.SetLabels(l)
	a := obj.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[lsv1alpha1.DataObjectHashAnnotation] = m.hash
	obj.SetAnnotations(a)
}

func optional[T any](p *T) string {
	if p == nil {
		return ""
	}
	return fmt.Sprint(*p)
}

// writeDataObject creates or updates the DataObject name with value and
// labels m, owned by owner. exclusive refuses to take over a DataObject that
// another installation owns.
func writeDataObject(ctx context.Context, c fakecluster.Client, owner *lsv1alpha1.Installation, name string, value any, m meta, exclusive bool) error {
	raw, err := json.MarshalIndent(value, "", "  ")
	if err != nil {
		return fmt.Errorf("marshal value: %w", err)
	}
	m.hash = sha1Hex(raw)
	do := &lsv1alpha1.DataObject{}
	return upsert(ctx, c, owner, types.NamespacedName{Namespace: owner.Namespace, Name: name}, do, exclusive, func() {
		do.Data = lsv1alpha1.NewAnyJSON(raw)
		m.apply(do)
	})
}

// writeTarget creates or updates the Target name from t with labels m,
// owned by owner, as Landscaper's TargetExtension.Apply writes a target
// import or export: t's spec, labels and annotations, and the hash of its
// content.
func writeTarget(ctx context.Context, c fakecluster.Client, owner *lsv1alpha1.Installation, name string, t *lsv1alpha1.Target, m meta, exclusive bool) error {
	m.hash = sha1Hex(hashableContent(t))
	return putTarget(ctx, c, owner, name, t, m, exclusive, true)
}

// writeTargetElement is writeTarget for an element of a targetList or
// targetMap import, as Landscaper's TargetExtensionList.Apply and
// TargetMapExtension.Apply write one: only t's spec, with the labels m and
// the hash t carries (that of its content when it carries none); t's own
// labels and annotations are not copied.
func writeTargetElement(ctx context.Context, c fakecluster.Client, owner *lsv1alpha1.Installation, name string, t *lsv1alpha1.Target, m meta) error {
	m.hash = t.Annotations[lsv1alpha1.DataObjectHashAnnotation]
	if m.hash == "" {
		m.hash = sha1Hex(hashableContent(t))
	}
	return putTarget(ctx, c, owner, name, t, m, false, false)
}

// putTarget creates or updates the Target name from t's spec (with
// withMeta also its labels and annotations) and the labels m.
func putTarget(ctx context.Context, c fakecluster.Client, owner *lsv1alpha1.Installation, name string, t *lsv1alpha1.Target, m meta, exclusive, withMeta bool) error {
	obj := &lsv1alpha1.Target{}
	return upsert(ctx, c, owner, types.NamespacedName{Namespace: owner.Namespace, Name: name}, obj, exclusive, func() {
		obj.Spec = *t.Spec.DeepCopy()
		if withMeta {
			for k, v := range t.Annotations {
				metav1.SetMetaDataAnnotation(&obj.ObjectMeta, k, v)
			}
			for k, v := range t.Labels {
				metav1.SetMetaDataLabel(&obj.ObjectMeta, k, v)
			}
		}
		m.apply(obj)
	})
}

// hashableContent is what Landscaper hashes of a Target: its config, or
// its secretRef.
func hashableContent(t *lsv1alpha1.Target) []byte {
	if t.Spec.Configuration != nil {
		return t.Spec.Configuration.RawMessage
	}
	if t.Spec.SecretRef != nil {
		data, _ := json.Marshal(map[string]any{"secretRef": t.Spec.SecretRef})
		return data
	}
	return nil
}

// upsert reads the object key into obj, lets mutate change it, adds an
// owner reference to owner and creates or updates it. Unchanged objects are
// not written.
func upsert(ctx context.Context, c fakecluster.Client, owner *lsv1alpha1.Installation, key types.NamespacedName,
	obj fakecluster.Object, exclusive bool, mutate func()) error {
	err := c.Get(ctx, key, obj)
	exists := err == nil
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	var before runtime.Object
	if exists {
		before = obj.DeepCopyObject()
	}
	obj.SetName(key.Name)
	obj.SetNamespace(key.Namespace)
	if err := addOwner(obj, owner, exclusive); err != nil {
		return err
	}
	mutate()
	if !exists {
		return c.Create(ctx, obj)
	}
	if semantic.DeepEqual(before, obj) {
		return nil
	}
	return c.Update(ctx, obj)
}

// addOwner adds an owner reference to owner. With exclusive, an owner
// reference to another Installation is an error.
func addOwner(obj metav1.Object, owner *lsv1alpha1.Installation, exclusive bool) error {
	refs := obj.GetOwnerReferences()
	for _, ref := range refs {
		if ref.Kind != "Installation" {
			continue
		}
		if ref.UID == owner.UID {
			return nil
		}
		if exclusive {
			return &ownerConflictError{object: obj.GetNamespace() + "/" + obj.GetName(), owner: ref.Name}
		}
	}
	obj.SetOwnerReferences(append(refs, ownerRef(owner)))
	return nil
}

// ownerConflictError is an export object that another installation owns.
type ownerConflictError struct {
	object string // "<namespace>/<name>"
	owner  string // the other installation
}

func (e *ownerConflictError) Error() string {
	_, name, _ := strings.Cut(e.object, "/")
	return fmt.Sprintf("%s is already written by installation %s (each dataRef and target may have one exporter)", name, e.owner)
}

// landscaperConflictText is Landscaper's message for an export that
// another installation owns: CreateOrUpdateExports
// (pkg/landscaper/installations/operation.go) wraps the error of
// SetExclusiveOwnerReference (pkg/utils/miscellaneous.go) in its mutate
// function's words, in read_write_layer's errorWithWriteID and in its own.
// what is "data object" or "target"; writeID W000068 or W000069.
func landscaperConflictText(err error, what, writeID, name, key string) string {
	oc, ok := errors.AsType[*ownerConflictError](err)
	if !ok {
		return ""
	}
	mutate := fmt.Sprintf("dataobject '%s' for export '%s' conflicts with existing dataobject owned by another installation", oc.object, key)
	if what == "target" {
		mutate = fmt.Sprintf("target object '%s' for export '%s' conflicts with existing target owned by another installation", oc.object, key)
	}
	return fmt.Sprintf("unable to create or update %s %s for export %s: Op: errorWithWriteID - Reason: write - Message: write operation %s failed with %s: object '%s' is already owned by another object with kind 'Installation' (%s)",
		what, name, key, writeID, mutate, oc.object, oc.owner)
}
