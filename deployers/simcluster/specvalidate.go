package simcluster

import (
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// validateBuiltin runs kube-apiserver's validation of the built-in kinds
// lscli validates, on create (old nil) and update, in this order: a
// workload's selector (selector.go), a Secret's or ConfigMap's data
// (datavalidate.go), the specs of validateSpecs, RBAC objects
// (rbacvalidate.go) and a CronJob (cronjobvalidate.go). Each passes the
// kinds it does not validate. The data and the specs of a built-in kind
// that reached the store unstructured are checked as its Go type, converted
// once (asTyped); one that does not convert is left to the store's
// decoding.
func validateBuiltin(old, obj runtime.Object) error {
	if err := validateWorkloadSelector(obj); err != nil {
		return err
	}
	typed := obj
	if u, ok := obj.(*unstructured.Unstructured); ok {
		if t, err := asTyped(u.GroupVersionKind(), u); err == nil { // immutable.go
			typed = t
		}
	}
	if err := validateData(typed); err != nil {
		return err
	}
	if err := validateSpecs(typed); err != nil {
		return err
	}
	if err := validateBinding(obj); err != nil {
		return err
	}
	return validateCronJob(old, obj)
}

// validateSpecs runs, on create and update, kube-apiserver's validation of
// the specs lscli checks beyond a Secret's or ConfigMap's data
// (validateData): a PodDisruptionBudget's (pdbvalidate.go), a Service's
// ports and the containers of pod templates (portsvalidate.go).
func validateSpecs(obj runtime.Object) error {
	switch o := obj.(type) {
	case *policyv1.PodDisruptionBudget:
		return validatePodDisruptionBudget(o)
	case *corev1.Service:
		return validateServicePorts(o)
	}
	return validateContainers(obj)
}
