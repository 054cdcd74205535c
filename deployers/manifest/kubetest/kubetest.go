package kubetest

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// Kind is a kind the RESTMapper knows, with its scope.
type Kind struct {
	GVK        schema.GroupVersionKind
	Namespaced bool
}

// Kinds are the kinds every test cluster knows.
var Kinds = []Kind{
	{schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, true},
	{schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, true},
	{schema.GroupVersionKind{Version: "v1", Kind: "Service"}, true},
	{schema.GroupVersionKind{Version: "v1", Kind: "ServiceAccount"}, true},
	{schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, true},
	{schema.GroupVersionKind{Version: "v1", Kind: "ReplicationController"}, true},
	{schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, false},
	{schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, true},
	{schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"}, true},
	{schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}, true},
	{schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DaemonSet"}, true},
	{schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}, true},
	{schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}, false},
	{schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"}, true},
	{schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}, false},
}

// Mapper is a RESTMapper that knows Kinds and extra.
func Mapper(extra ...Kind) *meta.DefaultRESTMapper {
	m := meta.NewDefaultRESTMapper(nil)
	for _, k := range append(append([]Kind{}, Kinds...), extra...) {
		scope := meta.RESTScopeRoot
		if k.Namespaced {
			scope = meta.RESTScopeNamespace
		}
		m.Add(k.GVK, scope)
	}
	return m
}

// NewClient is a fake client with client-go's scheme, Mapper(extra...) and
// objs already stored.
func NewClient(objs []client.Object, extra ...Kind) client.WithWatch {
	return Builder(extra...).WithObjects(objs...).Build()
}

// Builder is NewClient's builder, for further options such as interceptors.
func Builder(extra ...Kind) *fake.ClientBuilder {
	return fake.NewClientBuilder().WithScheme(clientgoscheme.Scheme).WithRESTMapper(Mapper(extra...))
}

// Object decodes one YAML document into an unstructured object with int64
// numbers, as the deployers do. It panics on bad YAML: tests only.
func Object(yaml string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	if err := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(yaml), 4096).Decode(u); err != nil {
		panic("kubetest: bad YAML: " + err.Error())
	}
	return u
}

// Objects decodes each YAML document into an object (see Object).
func Objects(docs ...string) []client.Object {
	objs := make([]client.Object, len(docs))
	for i, d := range docs {
		objs[i] = Object(d)
	}
	return objs
}

// Get reads the object of u's kind named like u from c, or nil when it does
// not exist; other errors fail the test.
func Get(t testing.TB, c client.Client, apiVersion, kind, namespace, name string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	err := c.Get(context.Background(), client.ObjectKey{Namespace: namespace, Name: name}, u)
	if client.IgnoreNotFound(err) != nil {
		t.Fatalf("get %s %s/%s: %v", kind, namespace, name, err)
	}
	if err != nil {
		return nil
	}
	return u
}
