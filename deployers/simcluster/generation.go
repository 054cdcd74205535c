package simcluster

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// generationRule says how the API server keeps metadata.generation of a
// kind that has one: 1 on create, one more when the versioned fields
// change. Kinds without a rule have no generation (it stays 0), as
// ConfigMaps, Secrets, Services, Namespaces and RBAC objects on a real
// cluster.
type generationRule struct {
	// annotations and labels count as versioned fields too.
	annotations, labels bool
	// status counts too: a custom resource whose CRD declares no status
	// subresource.
	status bool
	// frozen kinds get generation 1 and keep it (PriorityClass, whose
	// value cannot change).
	frozen bool
}

// generationKinds are the built-in kinds whose registry strategy (the
// PrepareForCreate and PrepareForUpdate of k8s.io/kubernetes pkg/registry
// and apiextensions-apiserver, Kubernetes 1.37) maintains
// metadata.generation. Their versioned fields are the top-level fields
// other than metadata and status (spec; webhooks of webhook
// configurations; template of PodTemplates; the endpoints of
// EndpointSlices).
var generationKinds = map[schema.GroupKind]generationRule{
	{Group: "apps", Kind: "Deployment"}:                                               {annotations: true}, // annotations are copied to ReplicaSets
	{Group: "apps", Kind: "DaemonSet"}:                                                {},
	{Group: "apps", Kind: "ReplicaSet"}:                                               {},
	{Group: "apps", Kind: "StatefulSet"}:                                              {},
	{Kind: "Pod"}:                                                                     {},
	{Kind: "PodTemplate"}:                                                             {},
	{Kind: "ReplicationController"}:                                                   {},
	{Group: "batch", Kind: "Job"}:                                                     {},
	{Group: "batch", Kind: "CronJob"}:                                                 {},
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}:                           {},
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}:                                {labels: true},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                       {},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}:       {},
	{Group: "networking.k8s.io", Kind: "Ingress"}:                                     {},
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                                {},
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}:                               {},
	{Group: "policy", Kind: "PodDisruptionBudget"}:                                    {},
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                               {frozen: true},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     {},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   {},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy"}:          {},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding"}:   {},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        {},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: {},
	{Group: "resource.k8s.io", Kind: "DeviceClass"}:                                   {},
	{Group: "resource.k8s.io", Kind: "DeviceTaintRule"}:                               {},
	{Group: "resource.k8s.io", Kind: "ResourceSlice"}:                                 {},
	crdGroupKind: {},
}

// generationRuleFor returns the rule of gvk, if it has one: a built-in kind
// from generationKinds, or a custom resource, whose generation counts every
// change but metadata (and status, when its CRD declares the status
// subresource: hasStatus).
func generationRuleFor(gvk schema.GroupVersionKind, hasStatus func(schema.GroupVersionKind) bool) (generationRule, bool) {
	if r, ok := generationKinds[gvk.GroupKind()]; ok {
		return r, true
	}
	if isBuiltin(gvk) {
		return generationRule{}, false
	}
	return generationRule{status: hasStatus == nil || !hasStatus(gvk)}, true
}

// changed reports whether the versioned fields of a and b differ.
func (r generationRule) changed(a, b runtime.Object) bool {
	if r.frozen || r.sameTyped(a, b) {
		return false
	}
	// JSON makes int64 and float64 numbers (typed or decoded objects) equal.
	ja, errA := json.Marshal(r.versioned(a))
	jb, errB := json.Marshal(r.versioned(b))
	return errA != nil || errB != nil || !bytes.Equal(ja, jb)
}

// sameTyped reports whether a and b are typed objects of one Go type whose
// versioned fields are deeply equal, which encode to the same JSON: most
// writes (a status update, an apply of the same manifest) leave them, and
// converting both objects to maps for the comparison was most of the cost
// of stamping a write. false means the JSON comparison decides.
func (r generationRule) sameTyped(a, b runtime.Object) bool {
	if r.status {
		return false
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() || va.Kind() != reflect.Pointer || va.IsNil() || vb.IsNil() || va.Elem().Kind() != reflect.Struct {
		return false
	}
	ea, eb := va.Elem(), vb.Elem()
	t := ea.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type == typeMetaType {
			continue // apiVersion and kind
		}
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == "metadata" || name == "status" {
			continue
		}
		if !f.IsExported() || !reflect.DeepEqual(ea.Field(i).Interface(), eb.Field(i).Interface()) {
			return false
		}
	}
	ma, errA := meta.Accessor(a)
	mb, errB := meta.Accessor(b)
	if errA != nil || errB != nil {
		return false
	}
	return (!r.annotations || semanticMapEqual(ma.GetAnnotations(), mb.GetAnnotations())) &&
		(!r.labels || semanticMapEqual(ma.GetLabels(), mb.GetLabels()))
}

// semanticMapEqual compares annotations or labels as the registries'
// apiequality.Semantic.DeepEqual does: an empty map is a nil one.
func semanticMapEqual(a, b map[string]string) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return reflect.DeepEqual(a, b)
}

// nilIfEmpty returns m, or nil when it is empty, so that empty and missing
// annotations or labels encode alike (null), as they compare equal.
func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// typeMetaType is the type of the apiVersion and kind of typed objects.
var typeMetaType = reflect.TypeFor[metav1.TypeMeta]()

// versioned returns the fields of obj the rule counts.
func (r generationRule) versioned(obj runtime.Object) map[string]any {
	out := specOf(obj)
	if r.status {
		out["status"] = contentOf(obj)["status"]
	}
	if m, err := meta.Accessor(obj); err == nil {
		if r.annotations {
			out["metadata.annotations"] = nilIfEmpty(m.GetAnnotations())
		}
		if r.labels {
			out["metadata.labels"] = nilIfEmpty(m.GetLabels())
		}
	}
	return out
}

// contentOf returns obj as a map.
func contentOf(obj runtime.Object) map[string]any {
	if u, ok := obj.(runtime.Unstructured); ok {
		return u.UnstructuredContent()
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil
	}
	return content
}

// specOf returns the top-level fields of obj but metadata, status and type.
func specOf(obj runtime.Object) map[string]any {
	content := contentOf(obj)
	out := make(map[string]any, len(content))
	for k, v := range content {
		switch k {
		case "metadata", "status", "apiVersion", "kind":
		default:
			out[k] = v
		}
	}
	return out
}
