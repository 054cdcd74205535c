package deletion

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// listAll lists every object of the custom group's types in its cluster.
func (g *group) listAll(ctx context.Context) ([]corev1.ObjectReference, error) {
	var refs []corev1.ObjectReference
	for _, t := range g.def.CustomResourceGroup.Resources {
		r, err := g.listType(ctx, t)
		if err != nil && g.resumed && gone(err) {
			continue // a later group deleted the CRD: the group was done (Groups.Resumed)
		}
		if err != nil {
			return nil, err
		}
		refs = append(refs, r...)
	}
	return refs, nil
}

// listType lists the objects of type t: in t.Namespaces (or every
// namespace) for namespaced types, named by t.Names (or all) otherwise.
func (g *group) listType(ctx context.Context, t managedresource.ResourceType) ([]corev1.ObjectReference, error) {
	probe := &unstructured.Unstructured{}
	probe.SetAPIVersion(t.APIVersion)
	probe.SetKind(t.Kind)
	namespaced, err := g.client.IsObjectNamespaced(probe)
	if err != nil {
		return nil, fmt.Errorf("deletiongroups: failed to determine whether type %v is namespaced: %w", typeMeta(t.APIVersion, t.Kind), err)
	}
	if !namespaced {
		if len(t.Names) == 0 {
			return g.list(ctx, t.APIVersion, t.Kind)
		}
		refs := make([]corev1.ObjectReference, len(t.Names))
		for i, name := range t.Names {
			refs[i] = corev1.ObjectReference{APIVersion: t.APIVersion, Kind: t.Kind, Name: name}
		}
		return refs, nil
	}
	namespaces := t.Namespaces
	if len(namespaces) == 0 {
		nsRefs, err := g.list(ctx, "v1", "Namespace")
		if err != nil {
			return nil, fmt.Errorf("error listing namespaces: %w", errors.Unwrap(err))
		}
		for _, ns := range nsRefs {
			namespaces = append(namespaces, ns.Name)
		}
	}
	var refs []corev1.ObjectReference
	for _, ns := range namespaces {
		inNS, err := g.list(ctx, t.APIVersion, t.Kind, client.InNamespace(ns))
		if err != nil {
			return nil, err
		}
		for _, r := range inNS {
			if emptyOrContains(t.Names, r.Name) {
				refs = append(refs, r)
			}
		}
	}
	return refs, nil
}

// typeMeta is the type as Landscaper's messages print it (%v of a
// metav1.TypeMeta: "{Kind apiVersion}").
func typeMeta(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}

// list lists the objects of a type and returns references to them.
func (g *group) list(ctx context.Context, apiVersion, kind string, opts ...client.ListOption) ([]corev1.ObjectReference, error) {
	list := &unstructured.UnstructuredList{}
	list.SetAPIVersion(apiVersion)
	list.SetKind(kind + "List")
	if err := g.client.List(ctx, list, opts...); err != nil {
		return nil, fmt.Errorf("error listing resources for type %v: %w", typeMeta(apiVersion, kind), err)
	}
	refs := make([]corev1.ObjectReference, 0, len(list.Items))
	for _, item := range list.Items {
		refs = append(refs, corev1.ObjectReference{APIVersion: apiVersion, Kind: kind, Name: item.GetName(), Namespace: item.GetNamespace()})
	}
	slices.SortFunc(refs, func(a, b corev1.ObjectReference) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return refs, nil
}
