package simcluster

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// APIServices (apiregistration.k8s.io) are served by kube-apiserver's
// built-in kube-aggregator, whose Go types client-go's scheme lacks (and
// lscli does not link k8s.io/kube-aggregator): a simulated cluster knows
// them as unstructured objects of known kinds, cluster-scoped, with a
// status subresource, in the versions of groupVersionSpans. What
// kube-aggregator's registry and controllers do, it does here: the
// default port of spec.service, ValidateAPIService, and the Available
// condition (apiServiceStatus).

// apiServiceGroup is the group of APIServices.
const apiServiceGroup = "apiregistration.k8s.io"

// apiServiceGroupKind is the group and kind of APIServices.
var apiServiceGroupKind = schema.GroupKind{Group: apiServiceGroup, Kind: "APIService"}

// aggregatorVersions are the versions of apiServiceGroup, preferred first.
var aggregatorVersions = []schema.GroupVersion{{Group: apiServiceGroup, Version: "v1"}, {Group: apiServiceGroup, Version: "v1beta1"}}

// addAggregatorKinds registers the APIService kinds in s as unstructured
// objects, v1 preferred.
func addAggregatorKinds(s *runtime.Scheme) {
	for _, gv := range aggregatorVersions {
		s.AddKnownTypeWithName(gv.WithKind("APIService"), &unstructured.Unstructured{})
		s.AddKnownTypeWithName(gv.WithKind("APIServiceList"), &unstructured.UnstructuredList{})
	}
	if err := s.SetVersionPriority(aggregatorVersions...); err != nil {
		panic(fmt.Sprintf("register apiregistration.k8s.io: %v", err)) // one group: a bug
	}
}

// isUnstructuredBuiltin reports whether gvk is a built-in kind without a Go
// type (an APIService), stored as an unstructured object.
func isUnstructuredBuiltin(gvk schema.GroupVersionKind) bool {
	return gvk.GroupKind() == apiServiceGroupKind
}

// newBuiltin returns a new object of the built-in kind gvk: its Go type, or
// an unstructured object of that kind.
func newBuiltin(gvk schema.GroupVersionKind) (runtime.Object, error) {
	o, err := builtin().New(gvk)
	if err != nil {
		return nil, err
	}
	if u, ok := o.(*unstructured.Unstructured); ok {
		u.SetGroupVersionKind(gvk)
	}
	return o, nil
}

// apiServiceStatusKinds are the APIService kinds, which have the status
// subresource.
func apiServiceStatusKinds() []schema.GroupVersionKind {
	out := make([]schema.GroupVersionKind, 0, len(aggregatorVersions))
	for _, gv := range aggregatorVersions {
		out = append(out, gv.WithKind("APIService"))
	}
	return out
}

// admitAPIService does to an APIService being stored what kube-aggregator
// does: the default port 443 of spec.service; on create the status of
// PrepareForCreate (a local APIService, without spec.service, is Available
// at once: reason Local; with keepStatus, a seed's, only when it has no
// Available condition); then ValidateAPIService, on create and update
// alike. obj of another kind is left alone.
func admitAPIService(obj runtime.Object, create, keepStatus bool, now metav1.Time) error {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || u.GroupVersionKind().GroupKind() != apiServiceGroupKind {
		return nil
	}
	svc, hasService, _ := unstructured.NestedMap(u.Object, "spec", "service")
	hasService = hasService && svc != nil
	if hasService {
		if _, ok := svc["port"]; !ok {
			_ = unstructured.SetNestedField(u.Object, int64(443), "spec", "service", "port")
		}
	}
	if create && !keepStatus {
		delete(u.Object, "status")
	}
	if create && !hasService && (!keepStatus || !hasAvailable(u)) {
		// A seed's own condition stays; kube-aggregator's local
		// availability controller gives one without any this.
		setAvailable(u, "True", "Local", "Local APIServices are always available", now)
	}
	if errs := validateAPIService(u); len(errs) > 0 {
		return apierrors.NewInvalid(apiServiceGroupKind, u.GetName(), errs)
	}
	return nil
}

// validateAPIService is kube-aggregator's ValidateAPIService
// (pkg/apis/apiregistration/validation): the name must be
// spec.version + "." + spec.group, the group an RFC 1123 subdomain (empty
// only for v1), the version an RFC 1035 label, the priorities in range; a
// local APIService may have neither caBundle nor insecureSkipTLSVerify,
// one of a Service names it and a valid port.
func validateAPIService(u *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	group, _, _ := unstructured.NestedString(u.Object, "spec", "group")
	version, _, _ := unstructured.NestedString(u.Object, "spec", "version")
	name := u.GetName()
	namePath := field.NewPath("metadata", "name")
	if msgs := path.IsValidPathSegmentName(name); len(msgs) > 0 {
		for _, msg := range msgs {
			errs = append(errs, field.Invalid(namePath, name, msg))
		}
	} else if required := version + "." + group; name != required {
		errs = append(errs, field.Invalid(namePath, name, fmt.Sprintf("must be `spec.version+\".\"+spec.group`: %q", required)))
	}
	if group == "" && version != "v1" {
		errs = append(errs, field.Required(field.NewPath("spec", "group"), "only v1 may have an empty group and it better be legacy kube"))
	}
	if group != "" {
		for _, msg := range utilvalidation.IsDNS1123Subdomain(group) {
			errs = append(errs, field.Invalid(field.NewPath("spec", "group"), group, msg))
		}
	}
	for _, msg := range utilvalidation.IsDNS1035Label(version) {
		errs = append(errs, field.Invalid(field.NewPath("spec", "version"), version, msg))
	}
	if p := intField(u, "spec", "groupPriorityMinimum"); p <= 0 || p > 20000 {
		errs = append(errs, field.Invalid(field.NewPath("spec", "groupPriorityMinimum"), p, "must be positive and less than 20000"))
	}
	if p := intField(u, "spec", "versionPriority"); p <= 0 || p > 1000 {
		errs = append(errs, field.Invalid(field.NewPath("spec", "versionPriority"), p, "must be positive and less than 1000"))
	}
	insecure, _, _ := unstructured.NestedBool(u.Object, "spec", "insecureSkipTLSVerify")
	caBundle, _, _ := unstructured.NestedString(u.Object, "spec", "caBundle")
	caBytes := len(caBundle)
	if b, err := base64.StdEncoding.DecodeString(caBundle); err == nil {
		caBytes = len(b)
	}
	svc, _, _ := unstructured.NestedMap(u.Object, "spec", "service")
	if svc == nil {
		if caBytes != 0 {
			errs = append(errs, field.Invalid(field.NewPath("spec", "caBundle"), fmt.Sprintf("%d bytes", caBytes), "local APIServices may not have a caBundle"))
		}
		if insecure {
			errs = append(errs, field.Invalid(field.NewPath("spec", "insecureSkipTLSVerify"), insecure, "local APIServices may not have insecureSkipTLSVerify"))
		}
		return errs
	}
	if ns, _ := svc["namespace"].(string); ns == "" {
		errs = append(errs, field.Required(field.NewPath("spec", "service", "namespace"), ""))
	}
	if n, _ := svc["name"].(string); n == "" {
		errs = append(errs, field.Required(field.NewPath("spec", "service", "name"), ""))
	}
	port := intField(u, "spec", "service", "port")
	if msgs := utilvalidation.IsValidPortNum(int(port)); msgs != nil {
		errs = append(errs, field.Invalid(field.NewPath("spec", "service", "port"), port, "port is not valid: "+strings.Join(msgs, ", ")))
	}
	if insecure && caBytes > 0 {
		errs = append(errs, field.Invalid(field.NewPath("spec", "insecureSkipTLSVerify"), insecure, "may not be true if caBundle is present"))
	}
	return errs
}

// intField reads an int32 field of u (JSON or YAML decoding gives int64,
// float64 or int), 0 when it is missing or not a number.
func intField(u *unstructured.Unstructured, fields ...string) int32 {
	v, ok, _ := unstructured.NestedFieldNoCopy(u.Object, fields...)
	if !ok {
		return 0
	}
	switch n := v.(type) {
	case int64:
		return int32(n)
	case int:
		return int32(n)
	case int32:
		return n
	case float64:
		return int32(n)
	}
	return 0
}

// hasAvailable reports whether u has an Available condition.
func hasAvailable(u *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Available" {
			return true
		}
	}
	return false
}

// setAvailable sets the Available condition of u as kube-aggregator's
// SetAPIServiceCondition does: lastTransitionTime changes only with the
// status; it reports whether the condition changed.
func setAvailable(u *unstructured.Unstructured, status, reason, message string, now metav1.Time) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for i, c := range conds {
		m, ok := c.(map[string]any)
		if !ok || m["type"] != "Available" {
			continue
		}
		if m["status"] == status && m["reason"] == reason && m["message"] == message {
			return false
		}
		if m["status"] != status {
			m["status"] = status
			m["lastTransitionTime"] = now.UTC().Format("2006-01-02T15:04:05Z")
		}
		m["reason"], m["message"] = reason, message
		conds[i] = m
		_ = unstructured.SetNestedSlice(u.Object, conds, "status", "conditions")
		return true
	}
	conds = append(conds, map[string]any{"type": "Available", "status": status,
		"lastTransitionTime": now.UTC().Format("2006-01-02T15:04:05Z"), "reason": reason, "message": message})
	_ = unstructured.SetNestedSlice(u.Object, conds, "status", "conditions")
	return true
}

// apiServiceStatus is the Available condition kube-aggregator's
// availability controller (pkg/controllers/status/remote) writes for an
// APIService of a Service: ServiceNotFound without the Service,
// ServicePortError when a ClusterIP Service does not listen on the port,
// else Passed. A simulated cluster runs no pods and has no EndpointSlices:
// it takes the aggregated server behind the Service as ready, as it takes
// the workloads (the real controller would also check the endpoints and
// ask the server's discovery).
func apiServiceStatus(svc *corev1.Service, ref map[string]any, port int32) (status, reason, message string) {
	name, _ := ref["name"].(string)
	ns, _ := ref["namespace"].(string)
	if svc == nil {
		return "False", "ServiceNotFound", fmt.Sprintf("service/%s in %q is not present", name, ns)
	}
	if svc.Spec.Type == corev1.ServiceTypeClusterIP || svc.Spec.Type == "" {
		found := false
		for _, p := range svc.Spec.Ports {
			if p.Port == port {
				found = true
				break
			}
		}
		if !found {
			return "False", "ServicePortError", fmt.Sprintf("service/%s in %q is not listening on port %d", name, ns, port)
		}
	}
	return "True", "Passed", "all checks passed"
}

// checkAPIServices runs kube-aggregator's availability controller for the
// APIServices of Services: the one named name when gvk is an APIService,
// those of the Service ns/name when gvk is a Service, those of every
// Service of the Namespace name when gvk is a Namespace. The caller holds
// the lock.
func (c *Cluster) checkAPIServices(ctx context.Context, gvk schema.GroupVersionKind, ns, name string) error {
	var match func(u *unstructured.Unstructured, svcNS, svcName string) bool
	switch gvk.GroupKind() {
	case apiServiceGroupKind:
		match = func(u *unstructured.Unstructured, _, _ string) bool { return u.GetName() == name }
	case schema.GroupKind{Kind: "Service"}:
		match = func(_ *unstructured.Unstructured, svcNS, svcName string) bool { return svcNS == ns && svcName == name }
	case schema.GroupKind{Kind: "Namespace"}:
		match = func(_ *unstructured.Unstructured, svcNS, _ string) bool { return svcNS == name }
	default:
		return nil
	}
	now := metav1.NewTime(c.set.opts.Now())
	for _, kind := range c.apiServiceKinds() {
		if err := c.checkAPIServicesOf(ctx, kind, match, now); err != nil {
			return err
		}
	}
	return nil
}

// checkAPIServicesOf runs the availability controller for the APIServices
// of version kind (each version is stored apart) that match.
func (c *Cluster) checkAPIServicesOf(ctx context.Context, kind schema.GroupVersionKind,
	match func(u *unstructured.Unstructured, svcNS, svcName string) bool, now metav1.Time) error {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(kind.GroupVersion().WithKind("APIServiceList"))
	if err := c.inner.List(ctx, list); err != nil {
		return fmt.Errorf("simulated cluster %s: list APIServices: %w", c.key, err)
	}
	for i := range list.Items {
		u := &list.Items[i]
		ref, _, _ := unstructured.NestedMap(u.Object, "spec", "service")
		if ref == nil {
			continue // the local controller's: Local since the create
		}
		svcNS, _ := ref["namespace"].(string)
		svcName, _ := ref["name"].(string)
		if !match(u, svcNS, svcName) {
			continue
		}
		svc := &corev1.Service{}
		switch err := c.inner.Get(ctx, client.ObjectKey{Namespace: svcNS, Name: svcName}, svc); {
		case apierrors.IsNotFound(err):
			svc = nil
		case err != nil:
			return fmt.Errorf("simulated cluster %s: get Service %s/%s: %w", c.key, svcNS, svcName, err)
		}
		status, reason, message := apiServiceStatus(svc, ref, intField(u, "spec", "service", "port"))
		if !setAvailable(u, status, reason, message, now) {
			continue
		}
		if err := c.inner.Status().Update(ctx, u, client.FieldOwner(controllerManager)); err != nil {
			return fmt.Errorf("simulated cluster %s: availability controller: update status of APIService %s: %w", c.key, u.GetName(), err)
		}
	}
	return nil
}

// apiServiceKinds are the versions of APIService the cluster ever stored
// (known to its tracker), sorted, so that writes of Services list none in
// clusters without APIServices.
func (c *Cluster) apiServiceKinds() []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for _, gvk := range apiServiceStatusKinds() {
		gvr, _ := meta.UnsafeGuessKindToResource(gvk)
		if _, ok := c.tracker.kinds[gvr]; ok {
			out = append(out, gvk)
		}
	}
	return out
}
