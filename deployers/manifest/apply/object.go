package apply

import (
	"context"
	"fmt"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/deletion"
)

// applyItem applies one manifest. It returns the inventory entry (nil when
// the object is not recorded), the patchAfterDeployment hook to run later,
// and an error; an update that fails is still recorded, as in Landscaper.
func applyItem(ctx context.Context, opts Options, it *item) (*managedresource.ManagedResourceStatus, *Patch, error) {
	if it.Policy == managedresource.IgnorePolicy {
		return nil, nil, nil
	}
	obj, err := it.decode(opts.DefaultNamespace)
	if err != nil {
		return nil, nil, err
	}
	key := client.ObjectKeyFromObject(obj)
	live := &unstructured.Unstructured{}
	live.SetGroupVersionKind(obj.GroupVersionKind())
	if err := opts.Client.Get(ctx, key, live); err != nil {
		if !apierrors.IsNotFound(err) {
			return nil, nil, fmt.Errorf("unable to get object: %w", err)
		}
		return create(ctx, opts, it, obj)
	}
	mr := it.status(live)
	if it.Policy == managedresource.FallbackPolicy && live.GetLabels()[DeployItemLabel] != opts.DeployItem {
		return nil, nil, nil
	}
	if it.Policy == managedresource.ImmutablePolicy {
		return mr, nil, nil
	}
	if err := update(ctx, opts, obj, live); err != nil {
		return mr, nil, err
	}
	return mr, it.patch(live), nil
}

// create creates obj with our labels and annotateBeforeCreate.
func create(ctx context.Context, opts Options, it *item, obj *unstructured.Unstructured) (*managedresource.ManagedResourceStatus, *Patch, error) {
	setLabels(obj, opts)
	if it.AnnotateBeforeCreate != nil {
		obj.SetAnnotations(deletion.MergeAnnotations(obj.GetAnnotations(), it.AnnotateBeforeCreate))
	}
	if err := opts.Client.Create(ctx, obj); err != nil {
		return nil, nil, fmt.Errorf("unable to create resource %s: %w", client.ObjectKeyFromObject(obj), err)
	}
	return it.status(obj), it.patch(obj), nil
}

// setLabels puts opts.Labels and DeployItemLabel on obj.
func setLabels(obj *unstructured.Unstructured, opts Options) {
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	for k, v := range opts.Labels {
		labels[k] = v
	}
	labels[DeployItemLabel] = opts.DeployItem
	obj.SetLabels(labels)
}

// status is the inventory entry for the item's object obj.
func (it *item) status(obj *unstructured.Unstructured) *managedresource.ManagedResourceStatus {
	return &managedresource.ManagedResourceStatus{
		AnnotateBeforeDelete: it.AnnotateBeforeDelete,
		PatchBeforeDelete:    it.PatchBeforeDelete,
		Policy:               it.Policy,
		Resource:             refOf(obj),
	}
}

// patch is the item's patchAfterDeployment hook for obj, or nil.
func (it *item) patch(obj *unstructured.Unstructured) *Patch {
	if it.PatchAfterDeployment == nil {
		return nil
	}
	ref := refOf(obj)
	ref.UID = ""
	return &Patch{Object: ref, Patch: it.PatchAfterDeployment}
}

// refOf is the reference Landscaper records for obj.
func refOf(obj *unstructured.Unstructured) corev1.ObjectReference {
	return corev1.ObjectReference{
		APIVersion: obj.GroupVersionKind().GroupVersion().String(),
		Kind:       obj.GetKind(),
		Name:       obj.GetName(),
		Namespace:  obj.GetNamespace(),
		UID:        obj.GetUID(),
	}
}
