package simcluster

import (
	"strconv"
	"strings"

	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// pdbSpecValue is how kube-apiserver shows a PodDisruptionBudget's spec in
// its "cannot be both set" error: its internal type, which has no JSON
// tags, so the value is rendered with the Go field names in that type's
// order (k8s.io/kubernetes pkg/apis/policy PodDisruptionBudgetSpec).
type pdbSpecValue struct {
	MinAvailable               *intstr.IntOrString
	Selector                   *metav1.LabelSelector
	MaxUnavailable             *intstr.IntOrString
	UnhealthyPodEvictionPolicy *policyv1.UnhealthyPodEvictionPolicyType
}

// validatePodDisruptionBudget checks a policy/v1 PodDisruptionBudget being
// created or updated as kube-apiserver's validation does (k8s.io/kubernetes
// pkg/apis/policy/validation ValidatePodDisruptionBudgetSpec, compared with
// a real one in pdbvalidate_realcluster_test.go): minAvailable and
// maxUnavailable not both set (a chart's default of one plus a user's
// override of the other is the common way to get there), each a
// non-negative integer or a percentage of at most 100%, a well-formed
// selector, and unhealthyPodEvictionPolicy one of the two policies. The
// status is not validated.
func validatePodDisruptionBudget(pdb *policyv1.PodDisruptionBudget) error {
	spec := pdb.Spec
	fld := field.NewPath("spec")
	var errs field.ErrorList
	if spec.MinAvailable != nil && spec.MaxUnavailable != nil {
		v := pdbSpecValue{spec.MinAvailable, spec.Selector, spec.MaxUnavailable, spec.UnhealthyPodEvictionPolicy}
		errs = append(errs, field.Invalid(fld, v, "minAvailable and maxUnavailable cannot be both set"))
	}
	if spec.MinAvailable != nil {
		errs = append(errs, intOrPercentErrors(*spec.MinAvailable, fld.Child("minAvailable"))...)
	}
	if spec.MaxUnavailable != nil {
		errs = append(errs, intOrPercentErrors(*spec.MaxUnavailable, fld.Child("maxUnavailable"))...)
	}
	errs = append(errs, metav1validation.ValidateLabelSelector(spec.Selector, metav1validation.LabelSelectorValidationOptions{}, fld.Child("selector"))...)
	if p := spec.UnhealthyPodEvictionPolicy; p != nil && *p != policyv1.IfHealthyBudget && *p != policyv1.AlwaysAllow {
		errs = append(errs, field.NotSupported(fld.Child("unhealthyPodEvictionPolicy"), *p, []string{string(policyv1.AlwaysAllow), string(policyv1.IfHealthyBudget)}))
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget").GroupKind(), pdb.Name, errs)
	}
	return nil
}

// intOrPercentErrors are kube-apiserver's ValidatePositiveIntOrPercent and
// IsNotMoreThan100Percent (pkg/apis/apps/validation) of v at fld.
func intOrPercentErrors(v intstr.IntOrString, fld *field.Path) field.ErrorList {
	if v.Type == intstr.Int {
		return apivalidation.ValidateNonnegativeField(int64(v.IntValue()), fld)
	}
	var errs field.ErrorList
	for _, msg := range validation.IsValidPercent(v.StrVal) {
		errs = append(errs, field.Invalid(fld, v, msg))
	}
	if len(errs) > 0 {
		return errs
	}
	if n, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%")); err == nil && n > 100 {
		errs = append(errs, field.Invalid(fld, v, "must not be greater than 100%"))
	}
	return errs
}
