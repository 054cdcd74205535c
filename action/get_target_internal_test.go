package action

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A cluster object's NAME may be NAMESPACE/NAME, as lscli's messages name
// the objects a deployer applies (unable to create resource test/cm): a helm
// chart that puts one name in several namespaces is narrowed to one.
func TestSelectClusterObjectsNamespacedName(t *testing.T) {
	cm := func(ns, name string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("v1")
		u.SetKind("ConfigMap")
		u.SetNamespace(ns)
		u.SetName(name)
		return u
	}
	objs := []*unstructured.Unstructured{cm("a", "x"), cm("b", "x"), cm("b", "y")}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"x", []string{"a/x", "b/x"}},
		{"b/x", []string{"b/x"}},
		{"c/x", nil},
	} {
		var got []string
		for _, o := range selectClusterObjects(objs, []string{"cm", tc.name}) {
			got = append(got, o.GetNamespace()+"/"+o.GetName())
		}
		if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) || len(got) > 1 && got[1] != tc.want[1] {
			t.Errorf("cm %s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
