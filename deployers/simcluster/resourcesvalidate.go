package simcluster

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// containerResourceErrors checks a container's requests and limits at fld
// (its resources) as kube-apiserver's pod spec validation does
// (ValidateContainerResourceRequirements in k8s.io/kubernetes
// pkg/apis/core/validation, compared with a real one in
// resourcesvalidate_realcluster_test.go): no quantity is negative, a
// request is at most its limit, and for a resource that cannot be
// overcommitted (an extended resource such as a GPU, hugepages) equal to
// it. The limits come first, then the requests, each by name
// (kube-apiserver takes a container's limits and requests in the random
// order of Go's map iteration; lscli sorts them, so that every run words
// the error alike). A team that sets a limit from its imports below what
// the release requests (KubeVirt's virt-operator requests 450Mi of memory)
// gets the Deployment refused, on a real cluster too. Resource names are
// not validated.
func containerResourceErrors(r corev1.ResourceRequirements, fld *field.Path) field.ErrorList {
	var errs field.ErrorList
	limPath, reqPath := fld.Child("limits"), fld.Child("requests")
	for _, name := range sortedResourceNames(r.Limits) {
		errs = append(errs, nonNegative(r.Limits[name], limPath.Key(string(name)))...)
	}
	for _, name := range sortedResourceNames(r.Requests) {
		q := r.Requests[name]
		errs = append(errs, nonNegative(q, reqPath.Key(string(name)))...)
		limit, ok := r.Limits[name]
		if !ok {
			continue
		}
		switch {
		case q.Cmp(limit) != 0 && !overcommitAllowed(name):
			errs = append(errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be equal to %s limit of %s", name, limit.String())))
		case q.Cmp(limit) > 0:
			errs = append(errs, field.Invalid(reqPath, q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit.String())))
		}
	}
	return errs
}

// nonNegative is kube-apiserver's error for a negative quantity at fld.
func nonNegative(q resource.Quantity, fld *field.Path) field.ErrorList {
	if q.Sign() < 0 {
		return field.ErrorList{field.Invalid(fld, q.String(), "must be greater than or equal to 0")}
	}
	return nil
}

// sortedResourceNames are the names of l in order.
func sortedResourceNames(l corev1.ResourceList) []corev1.ResourceName {
	names := make([]corev1.ResourceName, 0, len(l))
	for n := range l {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// overcommitAllowed reports whether a request of name may be below its
// limit: a native resource (no domain, or one of kubernetes.io) that is not
// hugepages, as Kubernetes' v1 helper IsOvercommitAllowed says.
func overcommitAllowed(name corev1.ResourceName) bool {
	s := string(name)
	native := !strings.Contains(s, "/") || strings.Contains(s, corev1.ResourceDefaultNamespacePrefix)
	return native && !strings.HasPrefix(s, corev1.ResourceHugePagesPrefix)
}
