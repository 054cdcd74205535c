package simcluster

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// newScheme returns a scheme with every built-in kind of client-go and the
// CRD kind: the kinds a simulated cluster serves without a CRD.
func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	// Both add static type tables; an error is a bug in the API packages.
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(fmt.Sprintf("register client-go kinds: %v", err))
	}
	if err := apiextensionsv1.AddToScheme(s); err != nil {
		panic(fmt.Sprintf("register apiextensions/v1: %v", err))
	}
	return s
}

// builtin is the scheme of built-in kinds. It is never changed: the fake
// client registers custom resource kinds in a scheme of its own.
var builtin = newScheme()

// isBuiltin reports whether gvk is a kind the cluster serves without a CRD.
func isBuiltin(gvk schema.GroupVersionKind) bool {
	return builtin.Recognizes(gvk) && !isListKind(gvk)
}

// isListKind reports whether gvk names a list kind (e.g. ConfigMapList).
func isListKind(gvk schema.GroupVersionKind) bool {
	return len(gvk.Kind) > 4 && gvk.Kind[len(gvk.Kind)-4:] == "List"
}

// clusterScoped are the built-in kinds that are not namespaced (Kubernetes
// 1.37; from the +genclient:nonNamespaced markers of k8s.io/api).
var clusterScoped = map[schema.GroupKind]bool{}

func init() {
	groups := map[string][]string{
		"":                             {"ComponentStatus", "Namespace", "Node", "PersistentVolume"},
		"admissionregistration.k8s.io": {"MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding", "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "ValidatingWebhookConfiguration"},
		"apiextensions.k8s.io":         {"CustomResourceDefinition"},
		"apiregistration.k8s.io":       {"APIService"},
		"authentication.k8s.io":        {"SelfSubjectReview", "TokenReview"},
		"authorization.k8s.io":         {"SelfSubjectAccessReview", "SelfSubjectRulesReview", "SubjectAccessReview"},
		"certificates.k8s.io":          {"CertificateSigningRequest", "ClusterTrustBundle"},
		"flowcontrol.apiserver.k8s.io": {"FlowSchema", "PriorityLevelConfiguration"},
		"imagepolicy.k8s.io":           {"ImageReview"},
		"internal.apiserver.k8s.io":    {"StorageVersion"},
		"networking.k8s.io":            {"IPAddress", "IngressClass", "ServiceCIDR"},
		"node.k8s.io":                  {"RuntimeClass"},
		"rbac.authorization.k8s.io":    {"ClusterRole", "ClusterRoleBinding"},
		"resource.k8s.io":              {"DeviceClass", "DeviceTaintRule", "ResourcePoolStatusRequest", "ResourceSlice"},
		"scheduling.k8s.io":            {"PriorityClass"},
		"storage.k8s.io":               {"CSIDriver", "CSINode", "StorageClass", "VolumeAttachment", "VolumeAttributesClass"},
		"storagemigration.k8s.io":      {"StorageVersionMigration"},
	}
	for group, kinds := range groups {
		for _, k := range kinds {
			clusterScoped[schema.GroupKind{Group: group, Kind: k}] = true
		}
	}
}

// builtinMapper returns a RESTMapper for the built-in kinds with their scope.
func builtinMapper() *meta.DefaultRESTMapper {
	m := meta.NewDefaultRESTMapper(builtin.PrioritizedVersionsAllGroups())
	for gvk := range builtin.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || isListKind(gvk) || gvk.Kind == "WatchEvent" {
			continue
		}
		scope := meta.RESTScopeNamespace
		if clusterScoped[gvk.GroupKind()] {
			scope = meta.RESTScopeRoot
		}
		m.Add(gvk, scope)
	}
	return m
}
