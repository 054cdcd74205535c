package simcluster

import (
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// dropStatusOfStatusless removes the status of an applied configuration of
// a built-in kind whose type has none. controller-runtime's fake client
// keeps its own list of kinds with a status subresource, which still has
// networking.k8s.io/v1 NetworkPolicy (whose status Kubernetes v1.28
// removed), and sets `status: null` in an apply that creates one; the
// field manager's schema of the kind has no status, so the merge would
// fail ("expected objects with types from the same schema") where
// kube-apiserver stores the object.
func dropStatusOfStatusless(gvk schema.GroupVersionKind, ac runtime.Object) {
	u, ok := ac.(*unstructured.Unstructured)
	if !ok {
		return
	}
	if _, has := u.Object["status"]; !has {
		return
	}
	o, err := builtin().New(gvk)
	if err != nil {
		return
	}
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return
	}
	if _, ok := v.Elem().Type().FieldByName("Status"); !ok {
		delete(u.Object, "status")
	}
}
