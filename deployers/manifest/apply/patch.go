package apply

import (
	"context"
	"fmt"

	"dario.cat/mergo"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/deletion"
)

// Patch is a patchAfterDeployment hook of an applied object.
type Patch struct {
	// Object names the object (apiVersion, kind, namespace, name).
	Object corev1.ObjectReference
	// Patch is the JSON object merged into it.
	Patch *runtime.RawExtension
}

// PatchAfterDeployment runs the hooks in order: it reads each object, merges
// the patch into it (deletion.DecodePatch, then mergo with override) and
// updates it. It stops at the first error.
func PatchAfterDeployment(ctx context.Context, c client.Client, patches []Patch) error {
	for _, p := range patches {
		obj := &unstructured.Unstructured{}
		obj.SetAPIVersion(p.Object.APIVersion)
		obj.SetKind(p.Object.Kind)
		key := client.ObjectKey{Namespace: p.Object.Namespace, Name: p.Object.Name}
		if err := c.Get(ctx, key, obj); err != nil {
			return err // as Landscaper returns it
		}
		patch, err := deletion.DecodePatch(p.Patch.Raw)
		if err != nil {
			return err
		}
		if err := mergo.Merge(&obj.Object, patch, mergo.WithOverride); err != nil {
			return fmt.Errorf("unable to patch changes for resource %s: %w", key, err)
		}
		if err := c.Update(ctx, obj); err != nil {
			return fmt.Errorf("unable to patch resource %s: %w", key, err)
		}
	}
	return nil
}

// Patches returns the patchAfterDeployment hooks of opts.Manifests whose
// objects are in opts.ManagedResources, for a deployer that applied earlier
// and now, after waiting for readiness, runs the hooks. Immutable manifests
// are left out: only Apply knows whether it created their object (patched)
// or found it (not patched).
func Patches(opts Options) ([]Patch, error) {
	groups, err := group(opts.Client, opts.Manifests)
	if err != nil {
		return nil, err
	}
	var patches []Patch
	for _, items := range groups {
		for _, it := range items {
			if it.PatchAfterDeployment == nil || it.Policy == managedresource.IgnorePolicy || it.Policy == managedresource.ImmutablePolicy {
				continue
			}
			obj, err := it.decode(opts.DefaultNamespace)
			if err != nil {
				return nil, err
			}
			if p := it.patch(obj); Contains(opts.ManagedResources, p.Object) {
				patches = append(patches, *p)
			}
		}
	}
	return patches, nil
}
