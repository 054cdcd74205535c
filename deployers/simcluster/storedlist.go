package simcluster

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/testing"
)

// storedList lists the objects of resource gvr (kind kind of gvr's group
// version) in store, of every namespace, as values of T: typed ones as
// they are, unstructured ones converted; one that does not convert is left
// out. It reads the store directly, for the admission steps the tracker
// runs while it writes.
func storedList[T any, PT interface {
	*T
	runtime.Object
}](store testing.ObjectTracker, gvr schema.GroupVersionResource, kind string) ([]T, error) {
	list, err := store.List(gvr, gvr.GroupVersion().WithKind(kind), "")
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", gvr.Resource, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(items))
	for _, it := range items {
		if t, ok := it.(PT); ok {
			out = append(out, *t)
			continue
		}
		u, ok := it.(*unstructured.Unstructured)
		if !ok {
			continue
		}
		var t T
		if runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &t) == nil {
			out = append(out, t)
		}
	}
	return out, nil
}

// newestDefault is the name of the newest of items that isDefault
// accepts, by creation time and then by name, as kube-apiserver's
// defaulting admission plugins pick a default class when several are
// marked (DefaultStorageClass, DefaultIngressClass); "" when none is.
func newestDefault[T any, PT interface {
	*T
	metav1.Object
}](items []T, isDefault func(PT) bool) string {
	var defaults []PT
	for i := range items {
		if p := PT(&items[i]); isDefault(p) {
			defaults = append(defaults, p)
		}
	}
	if len(defaults) == 0 {
		return ""
	}
	sort.Slice(defaults, func(i, j int) bool {
		ti, tj := defaults[i].GetCreationTimestamp().UnixNano(), defaults[j].GetCreationTimestamp().UnixNano()
		if ti == tj {
			return defaults[i].GetName() < defaults[j].GetName()
		}
		return ti > tj
	})
	return defaults[0].GetName()
}
