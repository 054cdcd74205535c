package apply

import (
	"context"
	"fmt"

	"dario.cat/mergo"
	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// update writes the manifest obj over the live object by opts.UpdateStrategy.
func update(ctx context.Context, opts Options, obj, live *unstructured.Unstructured) error {
	key := client.ObjectKeyFromObject(obj)
	switch s := opts.UpdateStrategy; s {
	case manifestv1alpha2.UpdateStrategyUpdate, manifestv1alpha2.UpdateStrategyPatch:
		setLabels(obj, opts)
		if err := CopyRequiredFields(live, obj); err != nil {
			return err
		}
		if s == manifestv1alpha2.UpdateStrategyPatch {
			if err := opts.Client.Patch(ctx, obj, client.MergeFrom(live)); err != nil {
				return fmt.Errorf("unable to patch resource %s: %w", key, err)
			}
			return nil
		}
		if err := opts.Client.Update(ctx, obj); err != nil {
			return fmt.Errorf("unable to update resource %s: %w", key, err)
		}
	case manifestv1alpha2.UpdateStrategyMerge, manifestv1alpha2.UpdateStrategyMergeOverwrite:
		var mergeOpts []func(*mergo.Config)
		if s == manifestv1alpha2.UpdateStrategyMergeOverwrite {
			mergeOpts = append(mergeOpts, mergo.WithOverride)
		}
		if err := mergo.Merge(&live.Object, obj.Object, mergeOpts...); err != nil {
			return fmt.Errorf("unable to merge changes for resource %s: %w", key, err)
		}
		setLabels(live, opts)
		if err := opts.Client.Update(ctx, live); err != nil {
			return fmt.Errorf("unable to update resource %s: %w", key, err)
		}
	default:
		return fmt.Errorf("%s is not a valid update strategy", s)
	}
	return nil
}

// CopyRequiredFields copies from the live object into obj the fields an
// update must carry: Job spec.selector and spec.template.metadata.labels,
// Service spec.clusterIP, ServiceAccount secrets (only when obj has none),
// and metadata.resourceVersion. live and obj must be of the same group and
// kind.
func CopyRequiredFields(live, obj *unstructured.Unstructured) error {
	lgk, ogk := live.GroupVersionKind().GroupKind(), obj.GroupVersionKind().GroupKind()
	if lgk != ogk {
		return fmt.Errorf("objects do not have the same GroupKind: %s/%s", lgk, ogk)
	}
	var paths [][]string
	switch lgk.String() {
	case "Job.batch":
		paths = [][]string{{"spec", "selector"}, {"spec", "template", "metadata", "labels"}}
	case "Service":
		paths = [][]string{{"spec", "clusterIP"}}
	case "ServiceAccount":
		if secrets, _, _ := unstructured.NestedSlice(obj.Object, "secrets"); len(secrets) == 0 {
			paths = [][]string{{"secrets"}}
		}
	}
	paths = append(paths, []string{"metadata", "resourceVersion"})
	for _, p := range paths {
		if err := copyField(live, obj, p); err != nil {
			return err
		}
	}
	return nil
}

// copyField copies the value at path from live to obj when live has one.
func copyField(live, obj *unstructured.Unstructured, path []string) error {
	v, found, err := unstructured.NestedFieldCopy(live.Object, path...)
	if err != nil || !found {
		return err
	}
	if s, ok := v.([]any); ok && len(s) == 0 {
		return nil
	}
	return unstructured.SetNestedField(obj.Object, v, path...)
}
