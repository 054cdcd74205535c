package deletion

import (
	"context"
	"fmt"
	"maps"

	"dario.cat/mergo"
	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// DeployItemLabel marks the objects a deploy item manages; its value is the
// deploy item's name. Landscaper's manifest and helm deployers both set it.
const DeployItemLabel = manifestv1alpha2.ManagedDeployItemLabel

// Deletable is Landscaper's policy filter for deleting the managed object
// mr: keep and ignore objects are never deleted; a fallback object only while
// it still carries DeployItemLabel with deployItem's name (it is not deleted
// when it is gone or someone else took it over). Everything else is deletable.
func Deletable(ctx context.Context, c client.Client, mr *managedresource.ManagedResourceStatus, deployItem string) (bool, error) {
	switch mr.Policy {
	case managedresource.IgnorePolicy, managedresource.KeepPolicy:
		return false, nil
	case managedresource.FallbackPolicy:
		obj := objectFor(mr.Resource)
		if err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return false, fmt.Errorf("unable to get object %s %s: %w", obj.GroupVersionKind(), obj.GetName(), err)
		}
		return obj.GetLabels()[DeployItemLabel] == deployItem, nil
	}
	return true, nil
}

// PrepareForDelete runs the before-delete hooks of mr: it merges
// annotateBeforeDelete into the object's annotations and patchBeforeDelete
// into the object (both overriding what is there) and updates it. notFound
// is true when the object is gone; without hooks nothing is read.
func PrepareForDelete(ctx context.Context, c client.Client, mr *managedresource.ManagedResourceStatus) (notFound bool, err error) {
	if mr.AnnotateBeforeDelete == nil && mr.PatchBeforeDelete == nil {
		return false, nil
	}
	obj := objectFor(mr.Resource)
	key := client.ObjectKeyFromObject(obj)
	// The messages are Landscaper's (AnnotateAndPatchBeforeDelete), which
	// name the object by its group version kind and name.
	if err := c.Get(ctx, key, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, fmt.Errorf("unable to get resource with before-delete annotations %s %s: %w", obj.GroupVersionKind(), obj.GetName(), err)
	}
	if mr.AnnotateBeforeDelete != nil {
		obj.SetAnnotations(MergeAnnotations(obj.GetAnnotations(), mr.AnnotateBeforeDelete))
	}
	if mr.PatchBeforeDelete != nil {
		patch, err := DecodePatch(mr.PatchBeforeDelete.Raw)
		if err != nil {
			return false, err
		}
		if err := mergo.Merge(&obj.Object, patch, mergo.WithOverride); err != nil {
			return false, fmt.Errorf("unable to merge changes changes before delete for resource %s: %w", key, err)
		}
	}
	if err := c.Update(ctx, obj); err != nil {
		if apierrors.IsConflict(err) {
			return false, fmt.Errorf("unable to update resource with before-delete annotations due to a conflict %s %s: %w", obj.GroupVersionKind(), obj.GetName(), err)
		}
		return false, fmt.Errorf("unable to update resource with before-delete annotations %s %s: %w", obj.GroupVersionKind(), obj.GetName(), err)
	}
	return false, nil
}

// MergeAnnotations returns a copy of annotations with add merged in as
// Landscaper's hooks do (mergo with override: every entry of add wins).
func MergeAnnotations(annotations, add map[string]string) map[string]string {
	out := make(map[string]string, len(annotations)+len(add))
	if annotations == nil {
		maps.Copy(out, add)
		return out
	}
	maps.Copy(out, annotations)
	_ = mergo.Merge(&out, add, mergo.WithOverride) // maps of one type always merge
	return out
}

// DecodePatch decodes the JSON object of a patch hook (patchBeforeDelete,
// patchAfterDeployment), with Landscaper's error for one that is no object.
// Numbers are decoded as int64 where they are integers. Landscaper's hooks
// merge it into the object with mergo and override: nested maps are merged,
// other values replaced when the patch's value is not empty.
func DecodePatch(raw []byte) (map[string]any, error) {
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("error while decoding patch: %w", err)
	}
	return p, nil
}
