package fakecluster

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// NewScheme returns a scheme with the Landscaper core v1alpha1 kinds
// (Installation, Execution, DeployItem, DataObject, Target, Context, ...) and
// the Kubernetes core/v1 kinds (Secret, ConfigMap, Namespace, ...).
func NewScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	// Both builders only add static type tables; an error is a programmer error
	// in the API packages, so it cannot happen at run time.
	if err := lsv1alpha1.AddToScheme(s); err != nil {
		panic(fmt.Sprintf("register landscaper v1alpha1: %v", err))
	}
	if err := corev1.AddToScheme(s); err != nil {
		panic(fmt.Sprintf("register core/v1: %v", err))
	}
	return s
}

// KindOf returns the kind of obj, e.g. "Installation" for
// *v1alpha1.Installation, as registered in scheme. obj must be a pointer to a
// registered type; anything else is an error.
func KindOf(scheme *runtime.Scheme, obj runtime.Object) (string, error) {
	gvk, err := gvkOf(scheme, obj)
	if err != nil {
		return "", err
	}
	return gvk.Kind, nil
}

// gvkOf returns the group, version and kind of obj's Go type.
func gvkOf(scheme *runtime.Scheme, obj runtime.Object) (schema.GroupVersionKind, error) {
	gvks, _, err := scheme.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionKind{}, fmt.Errorf("kind of %T: %w", obj, err)
	}
	return gvks[0], nil
}

// listItemGVK returns the kind of the items of a typed list such as
// *v1alpha1.InstallationList.
func listItemGVK(scheme *runtime.Scheme, list ObjectList) (schema.GroupVersionKind, error) {
	gvk, err := gvkOf(scheme, list)
	if err != nil {
		return gvk, err
	}
	if !strings.HasSuffix(gvk.Kind, "List") || !meta.IsListType(list) {
		return gvk, fmt.Errorf("%T (kind %s) is not a typed list", list, gvk.Kind)
	}
	gvk.Kind = strings.TrimSuffix(gvk.Kind, "List")
	return gvk, nil
}

// pluralOverrides holds kinds whose resource name is not what
// meta.UnsafeGuessKindToResource makes of them: their kind is already plural.
var pluralOverrides = map[string]string{
	"ComponentVersionOverwrites": "componentversionoverwrites",
	"CriticalProblems":           "criticalproblems",
	"Endpoints":                  "endpoints",
}

// groupResource returns the resource of a kind, e.g.
// installations.landscaper.gardener.cloud, for apierrors. It is kept per
// kind: not-found errors are an expected answer on hot paths.
func groupResource(gk schema.GroupKind) schema.GroupResource {
	if gr, ok := resources.Load(gk); ok {
		return gr.(schema.GroupResource)
	}
	gr := guessGroupResource(gk)
	resources.Store(gk, gr)
	return gr
}

// resources caches groupResource.
var resources sync.Map

// guessGroupResource is groupResource without its cache.
func guessGroupResource(gk schema.GroupKind) schema.GroupResource {
	if plural, ok := pluralOverrides[gk.Kind]; ok {
		return schema.GroupResource{Group: gk.Group, Resource: plural}
	}
	plural, _ := meta.UnsafeGuessKindToResource(gk.WithVersion(""))
	return schema.GroupResource{Group: gk.Group, Resource: plural.Resource}
}

// ClusterScoped reports whether objects of kind gk have no namespace.
func ClusterScoped(gk schema.GroupKind) bool { return clusterScoped[gk] }

// clusterScoped lists the registered kinds that have no namespace. Every
// Landscaper kind is namespaced.
var clusterScoped = map[schema.GroupKind]bool{
	{Kind: "Namespace"}:        true,
	{Kind: "Node"}:             true,
	{Kind: "PersistentVolume"}: true,
	{Kind: "ComponentStatus"}:  true,
}

// notFound is apierrors.NewNotFound for a kind, the same error with the
// same message, built without fmt: looking for an object that is not there
// is a normal answer many steps of a run get.
func notFound(gk schema.GroupKind, name string) *apierrors.StatusError {
	gr := groupResource(gk)
	msg := make([]byte, 0, len(gr.Resource)+len(gr.Group)+len(name)+16)
	msg = append(msg, gr.Resource...)
	if gr.Group != "" {
		msg = append(append(msg, '.'), gr.Group...)
	}
	msg = append(strconv.AppendQuote(append(msg, ' '), name), " not found"...)
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusNotFound,
		Reason:  metav1.StatusReasonNotFound,
		Details: &metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name},
		Message: string(msg),
	}}
}
