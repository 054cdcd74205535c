package simcluster

import (
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateWorkloadSelector checks what kube-apiserver's validation of the
// apps/v1 workloads checks of their selector, on create and update alike
// (k8s.io/kubernetes pkg/apis/apps/validation: ValidateDeploymentSpec,
// ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec):
// a Deployment, ReplicaSet or StatefulSet needs one, none may have an empty
// or malformed one, and it must match the pod template's labels. Other
// fields of the spec are not validated. obj of another kind is left alone.
func validateWorkloadSelector(obj runtime.Object) error {
	var (
		gk       schema.GroupKind
		name     string
		selector *metav1.LabelSelector
		tmpl     map[string]string
		kind     string // as the empty-selector message names it
		required = true
	)
	switch o := obj.(type) {
	case *appsv1.Deployment:
		gk, name, selector, tmpl, kind = appsKind("Deployment"), o.Name, o.Spec.Selector, o.Spec.Template.Labels, "deployment"
	case *appsv1.ReplicaSet:
		// ValidateReplicaSetSpec words the empty selector as a Deployment's.
		gk, name, selector, tmpl, kind = appsKind("ReplicaSet"), o.Name, o.Spec.Selector, o.Spec.Template.Labels, "deployment"
	case *appsv1.StatefulSet:
		gk, name, selector, tmpl, kind = appsKind("StatefulSet"), o.Name, o.Spec.Selector, o.Spec.Template.Labels, "statefulset"
	case *appsv1.DaemonSet:
		gk, name, selector, tmpl, kind = appsKind("DaemonSet"), o.Name, o.Spec.Selector, o.Spec.Template.Labels, "daemonset"
		required = false
	default:
		return nil
	}
	sel := field.NewPath("spec", "selector")
	labelsPath := field.NewPath("spec", "template", "metadata", "labels")
	var errs field.ErrorList
	empty := selector != nil && len(selector.MatchLabels)+len(selector.MatchExpressions) == 0
	switch {
	case !required:
		// ValidateDaemonSetSpec: the selector's own errors, the template's
		// labels, then an empty selector.
		errs = append(errs, metav1validation.ValidateLabelSelector(selector, metav1validation.LabelSelectorValidationOptions{}, sel)...)
	case selector == nil:
		errs = append(errs, field.Required(sel, ""))
	default:
		errs = append(errs, metav1validation.ValidateLabelSelector(selector, metav1validation.LabelSelectorValidationOptions{}, sel)...)
		if empty {
			errs = append(errs, field.Invalid(sel, selector, "empty selector is invalid for "+kind))
		}
	}
	s, err := metav1.LabelSelectorAsSelector(selector)
	switch {
	case err != nil && required:
		msg := "invalid label selector"
		if kind == "statefulset" {
			msg = ""
		}
		errs = append(errs, field.Invalid(sel, selector, msg))
	case err != nil:
	case !required && !s.Matches(labels.Set(tmpl)),
		required && !s.Empty() && !s.Matches(labels.Set(tmpl)):
		errs = append(errs, field.Invalid(labelsPath, tmpl, "`selector` does not match template `labels`"))
	}
	if !required && empty {
		errs = append(errs, field.Invalid(sel, selector, "empty selector is invalid for "+kind))
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(gk, name, errs)
	}
	return nil
}

// appsKind is the group kind of kind in API group apps.
func appsKind(kind string) schema.GroupKind {
	return schema.GroupKind{Group: "apps", Kind: kind}
}
