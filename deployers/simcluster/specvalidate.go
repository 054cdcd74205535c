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
// kinds it does not validate.
func validateBuiltin(old, obj runtime.Object) error {
	if err := validateWorkloadSelector(obj); err != nil {
		return err
	}
	if err := validateData(obj); err != nil {
		return err
	}
	if err := validateSpecs(obj); err != nil {
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
// ports and the container ports of pod templates (portsvalidate.go). A
// built-in kind that reached the store unstructured is checked as its Go
// type; one that does not convert is left to the store's decoding.
func validateSpecs(obj runtime.Object) error {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		if u.GroupVersionKind() == policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget") {
			return validatePodDisruptionBudget(u)
		}
		k, ok := typedKinds[u.GroupVersionKind()]
		if !ok {
			return nil
		}
		typed := k.new()
		if runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed) != nil {
			return nil
		}
		obj = typed
	}
	switch o := obj.(type) {
	case *policyv1.PodDisruptionBudget:
		return validatePodDisruptionBudget(o)
	case *corev1.Service:
		return validateServicePorts(o)
	}
	return validateContainers(obj)
}
