package simcluster

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// keepStoredStatus gives obj, an update of the stored custom resource old
// whose kind has the status subresource, the stored status, as
// apiextensions-apiserver's PrepareForUpdate does
// (pkg/registry/customresource/strategy.go): none when old has none.
// controller-runtime's fake client copies the stored status into an
// update itself, but as "status": null when there is none, which
// kube-apiserver does not store; where the CRD's schema does not prune
// the null (a root with x-kubernetes-preserve-unknown-fields, as Tekton's
// CRDs have), the object got "status": null, and an update that changes
// nothing (a manifest deployer's reapply) became a write with a new
// resourceVersion. Typed objects are left alone.
func keepStoredStatus(old, obj runtime.Object) {
	o, ok := old.(*unstructured.Unstructured)
	n, ok2 := obj.(*unstructured.Unstructured)
	if !ok || !ok2 {
		return
	}
	if s, has := o.Object["status"]; has {
		n.Object["status"] = s
		return
	}
	delete(n.Object, "status")
}
