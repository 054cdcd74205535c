package deletion

import (
	"context"
	"slices"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// group is one deletion group with the objects assigned to it.
type group struct {
	def       managedresource.DeletionGroupDefinition
	client    client.Client
	force     bool
	all       bool
	secondary bool
	resumed   bool // Groups.Resumed
	refs      []corev1.ObjectReference
}

// match reports whether res belongs to the group.
func (g *group) match(res *managedresource.ManagedResourceStatus) bool {
	r := res.Resource
	isCRD := r.Kind == "CustomResourceDefinition"
	if p := g.def.PredefinedResourceGroup; p != nil {
		switch p.Type {
		case managedresource.PredefinedResourceGroupNamespacedResources:
			return !isCRD && r.Namespace != ""
		case managedresource.PredefinedResourceGroupClusterScopedResources:
			return !isCRD && r.Namespace == ""
		case managedresource.PredefinedResourceGroupCRDs:
			return isCRD
		}
		return false
	}
	if g.secondary {
		return false
	}
	for _, t := range g.def.CustomResourceGroup.Resources {
		if t.Kind == r.Kind && t.APIVersion == r.APIVersion && emptyOrContains(t.Namespaces, r.Namespace) && emptyOrContains(t.Names, r.Name) {
			return true
		}
	}
	return false
}

func emptyOrContains(list []string, s string) bool { return len(list) == 0 || slices.Contains(list, s) }

// deletePass deletes the group's objects once and returns those that are
// not known to be gone.
func (g *group) deletePass(ctx context.Context) ([]corev1.ObjectReference, error) {
	refs := g.refs
	if g.all {
		var err error
		if refs, err = g.listAll(ctx); err != nil {
			return nil, err
		}
	}
	var remaining []corev1.ObjectReference
	for _, ref := range refs {
		if g.deleteObject(ctx, ref) {
			remaining = append(remaining, ref)
		}
	}
	return remaining, nil
}

// deleteObject deletes the object ref names and reports whether it may
// still exist. With force it then clears the object's finalizers.
func (g *group) deleteObject(ctx context.Context, ref corev1.ObjectReference) bool {
	obj := objectFor(ref)
	if err := g.client.Delete(ctx, obj); err != nil {
		return !gone(err)
	}
	if !g.force {
		return true
	}
	if err := g.client.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		return !gone(err)
	}
	if len(obj.GetFinalizers()) > 0 {
		obj.SetFinalizers(nil)
		if err := g.client.Update(ctx, obj); err != nil {
			return !gone(err)
		}
	}
	return true
}

// gone reports whether err says the object does not exist (any more), also
// because its kind is gone with its CRD.
func gone(err error) bool { return apierrors.IsNotFound(err) || meta.IsNoMatchError(err) }

// objectFor is an object of ref's type and name.
func objectFor(ref corev1.ObjectReference) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(ref.APIVersion)
	u.SetKind(ref.Kind)
	u.SetName(ref.Name)
	u.SetNamespace(ref.Namespace)
	return u
}
