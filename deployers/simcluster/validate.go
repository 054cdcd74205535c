package simcluster

import (
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateMeta checks what kube-apiserver's validation checks of every
// object's metadata before it stores it: on create the name, with the rule
// of its kind (a lowercase RFC 1123 subdomain for most kinds, a DNS label
// for Namespaces, an RFC 1035 label for Services, a path segment for RBAC
// kinds), and on every write the labels. A manifest that names a ConfigMap
// "componentInfo" fails on a cluster; it fails here too, with the API
// server's Invalid error.
func validateMeta(gk schema.GroupKind, obj metav1.Object, create bool) error {
	var errs field.ErrorList
	if create && obj.GetName() != "" {
		for _, msg := range nameRule(gk)(obj.GetName(), false) {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), obj.GetName(), msg))
		}
	}
	errs = append(errs, metav1validation.ValidateLabels(obj.GetLabels(), field.NewPath("metadata", "labels"))...)
	if len(errs) > 0 {
		return apierrors.NewInvalid(gk, obj.GetName(), errs)
	}
	return nil
}

// nameRule is the name validation kube-apiserver applies to kind gk.
func nameRule(gk schema.GroupKind) apivalidation.ValidateNameFunc {
	switch gk {
	case schema.GroupKind{Kind: "Namespace"}:
		return apivalidation.ValidateNamespaceName
	case schema.GroupKind{Kind: "Service"}:
		return apivalidation.NameIsDNS1035Label
	case schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "Role"},
		schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"},
		schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"},
		schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:
		return path.ValidatePathSegmentName
	case apiServiceGroupKind:
		return func(string, bool) []string { return nil } // with its spec: validateAPIService
	}
	return apivalidation.NameIsDNSSubdomain
}
