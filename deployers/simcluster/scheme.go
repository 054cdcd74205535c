package simcluster

import (
	"fmt"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// newScheme returns a scheme with every built-in kind of client-go, the
// CRD kind and kube-aggregator's APIService (unstructured, apiservice.go):
// the kinds a simulated cluster serves without a CRD.
func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	// Both add static type tables; an error is a bug in the API packages.
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(fmt.Sprintf("register client-go kinds: %v", err))
	}
	if err := apiextensionsv1.AddToScheme(s); err != nil {
		panic(fmt.Sprintf("register apiextensions/v1: %v", err))
	}
	addAggregatorKinds(s)
	if err := addHPAConversions(s); err != nil { // hpaconversion.go
		panic(fmt.Sprintf("register HorizontalPodAutoscaler conversions: %v", err))
	}
	return s
}

// builtin returns the scheme of built-in kinds, made when first needed (it
// took a tenth of lscli's start, and most commands simulate no cluster).
// It is never changed: the fake client registers custom resource kinds in a
// scheme of its own.
var builtin = sync.OnceValue(newScheme)

// isBuiltin reports whether gvk is a built-in kind, one a cluster may serve
// without a CRD (whether its Kubernetes version does: servesKind).
func isBuiltin(gvk schema.GroupVersionKind) bool {
	return builtin().Recognizes(gvk) && !isListKind(gvk)
}

// isListKind reports whether gvk names a list kind (e.g. ConfigMapList).
func isListKind(gvk schema.GroupVersionKind) bool {
	return len(gvk.Kind) > 4 && gvk.Kind[len(gvk.Kind)-4:] == "List"
}

// builtinMapper returns a RESTMapper for the built-in kinds that
// Kubernetes 1.minor serves, with their scope.
func builtinMapper(minor int) *meta.DefaultRESTMapper {
	m := meta.NewDefaultRESTMapper(builtin().PrioritizedVersionsAllGroups())
	for gvk := range builtin().AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || isListKind(gvk) || gvk.Kind == "WatchEvent" || !servesKind(gvk, minor) {
			continue
		}
		scope := meta.RESTScopeNamespace
		if clusterScoped()[gvk.GroupKind()] {
			scope = meta.RESTScopeRoot
		}
		m.Add(gvk, scope)
	}
	return m
}
