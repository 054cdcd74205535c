package simcluster

import (
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateBinding checks a RoleBinding or ClusterRoleBinding (and the rules
// of a Role or ClusterRole: ruleErrors) being written
// as kube-apiserver's validation does (pkg/apis/rbac/validation
// ValidateRoleBinding and ValidateClusterRoleBinding, with the declarative
// checks of its v1.37: k8s.io/kubernetes is not a dependency of lscli):
// roleRef's apiGroup rbac.authorization.k8s.io, its kind Role or
// ClusterRole (only ClusterRole for a ClusterRoleBinding), its name given
// and a valid path segment; each subject of kind ServiceAccount, User or
// Group, named, a ServiceAccount's name a DNS subdomain, its apiGroup
// empty and, in a ClusterRoleBinding, its namespace given; a User's or
// Group's apiGroup rbac.authorization.k8s.io (which defaulting sets when
// it is empty). The missing names come last, as the API server's
// declarative validation adds them after the handwritten checks.
// A chart whose template leaves a subject's name empty (Gatekeeper's
// pre-delete ClusterRoleBinding, whose value the chart does not have)
// fails on a real cluster with "subjects[0].name: Required value", and
// here too. It runs after defaulting (admit). Other kinds pass.
func validateBinding(obj runtime.Object) error {
	switch o := obj.(type) {
	case *rbacv1.RoleBinding:
		return bindingInvalid("RoleBinding", o.Name, bindingErrors(o.RoleRef, o.Subjects, true))
	case *rbacv1.ClusterRoleBinding:
		return bindingInvalid("ClusterRoleBinding", o.Name, bindingErrors(o.RoleRef, o.Subjects, false))
	case *rbacv1.Role:
		return bindingInvalid("Role", o.Name, ruleErrors(o.Rules, true))
	case *rbacv1.ClusterRole:
		return bindingInvalid("ClusterRole", o.Name, ruleErrors(o.Rules, false))
	case *unstructured.Unstructured:
		gvk := o.GroupVersionKind()
		if gvk.GroupVersion() != rbacv1.SchemeGroupVersion {
			return nil
		}
		var typed runtime.Object
		switch gvk.Kind {
		case "RoleBinding":
			typed = &rbacv1.RoleBinding{}
		case "ClusterRoleBinding":
			typed = &rbacv1.ClusterRoleBinding{}
		case "Role":
			typed = &rbacv1.Role{}
		case "ClusterRole":
			typed = &rbacv1.ClusterRole{}
		default:
			return nil
		}
		if runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, typed) != nil {
			return nil // the store's decoding words that error
		}
		return validateBinding(typed)
	}
	return nil
}

// ruleErrors are the validation errors of a Role's or ClusterRole's rules
// (namespaced for a Role): a rule names verbs; one with nonResourceURLs
// names no API groups, resources or resource names, and is not in a Role;
// another names API groups and resources. The missing verbs come last, as
// the API server's declarative validation adds them after the handwritten
// checks. (An aggregated ClusterRole's rules are the controller's: its
// own manifest has none to check.)
func ruleErrors(rules []rbacv1.PolicyRule, namespaced bool) field.ErrorList {
	var errs, missing field.ErrorList
	for i, r := range rules {
		p := field.NewPath("rules").Index(i)
		if len(r.Verbs) == 0 {
			missing = append(missing, field.Required(p.Child("verbs"), ""))
		}
		if len(r.NonResourceURLs) > 0 {
			if namespaced {
				errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), r.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs"))
			}
			if len(r.APIGroups) > 0 || len(r.Resources) > 0 || len(r.ResourceNames) > 0 {
				errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), r.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
			}
			continue
		}
		if len(r.APIGroups) == 0 {
			errs = append(errs, field.Required(p.Child("apiGroups"), "resource rules must supply at least one api group"))
		}
		if len(r.Resources) == 0 {
			errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
		}
	}
	return append(errs, missing...)
}

// bindingInvalid is kube-apiserver's Invalid error of the RBAC kind (a
// binding or a role), or
// nil without errors.
func bindingInvalid(kind, name string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(rbacv1.SchemeGroupVersion.WithKind(kind).GroupKind(), name, errs)
}

// bindingErrors are the validation errors of a binding's roleRef and
// subjects; namespaced tells a RoleBinding from a ClusterRoleBinding.
func bindingErrors(ref rbacv1.RoleRef, subjects []rbacv1.Subject, namespaced bool) field.ErrorList {
	var errs, missing field.ErrorList
	refPath := field.NewPath("roleRef")
	if ref.APIGroup != rbacv1.GroupName {
		errs = append(errs, field.NotSupported(refPath.Child("apiGroup"), ref.APIGroup, []string{rbacv1.GroupName}))
	}
	kinds := []string{"ClusterRole"}
	if namespaced {
		kinds = []string{"Role", "ClusterRole"}
	}
	if !slices.Contains(kinds, ref.Kind) {
		errs = append(errs, field.NotSupported(refPath.Child("kind"), ref.Kind, kinds))
	}
	for _, msg := range path.ValidatePathSegmentName(ref.Name, false) {
		errs = append(errs, field.Invalid(refPath.Child("name"), ref.Name, msg))
	}
	for i, s := range subjects {
		p := field.NewPath("subjects").Index(i)
		if s.Name == "" {
			missing = append(missing, field.Required(p.Child("name"), ""))
		}
		switch s.Kind {
		case rbacv1.ServiceAccountKind:
			if s.Name != "" {
				for _, msg := range apivalidation.NameIsDNSSubdomain(s.Name, false) {
					errs = append(errs, field.Invalid(p.Child("name"), s.Name, msg))
				}
			}
			if s.APIGroup != "" {
				errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{""}))
			}
			if !namespaced && s.Namespace == "" {
				errs = append(errs, field.Required(p.Child("namespace"), ""))
			}
		case rbacv1.UserKind, rbacv1.GroupKind:
			if s.APIGroup != rbacv1.GroupName {
				errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{rbacv1.GroupName}))
			}
		default:
			errs = append(errs, field.NotSupported(p.Child("kind"), s.Kind,
				[]string{rbacv1.ServiceAccountKind, rbacv1.UserKind, rbacv1.GroupKind}))
		}
	}
	if ref.Name == "" {
		missing = append(missing, field.Required(refPath.Child("name"), ""))
	}
	return append(errs, missing...)
}
