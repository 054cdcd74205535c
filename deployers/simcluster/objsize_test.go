package simcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// objectSizeCRD is a CRD whose schema's description is DESC.
const objectSizeCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: bigs.size.example.com}
spec:
  group: size.example.com
  names: {kind: Big, plural: bigs, singular: big, listKind: BigList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: DESC
        x-kubernetes-preserve-unknown-fields: true
`

// objectSizeCase is a CRD whose description has size bytes and the answer
// kube-apiserver gives its create (as outcome renders it).
type objectSizeCase struct {
	name string
	size int
	want string
}

// crd is the case's CRD.
func (c objectSizeCase) crd() string {
	return strings.Replace(objectSizeCRD, "DESC", fmt.Sprintf("%q", strings.Repeat("x", c.size)), 1)
}

// objectSizeCases are CRDs as large as Prometheus Operator's (800 KiB),
// a little below and above etcd's limit and above kube-apiserver's.
var objectSizeCases = []objectSizeCase{
	{name: "prometheus-sized", size: 800 * 1024},
	{name: "below etcd's limit", size: 1500 * 1024},
	{name: "above etcd's limit", size: 1600 * 1024, want: "500  etcdserver: request is too large"},
	{name: "above the body limit", size: 3200 * 1024, want: "413 RequestEntityTooLarge Request entity too large: limit is 3145728"},
}

// bigConfigMap is a ConfigMap in namespace ns with n bytes of data: over
// 1 MiB kube-apiserver's validation refuses it, over 3 MiB it is not read.
func bigConfigMap(t *testing.T, ns string, n int) *unstructured.Unstructured {
	cm := obj(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\n")
	cm.SetNamespace(ns)
	cm.Object["data"] = map[string]interface{}{"k": strings.Repeat("x", n)}
	return cm
}

// configMapSizes are ConfigMap data sizes and kube-apiserver's answers.
var configMapSizes = []struct {
	size int
	want string
}{
	{2 << 20, "422 Invalid ConfigMap \"big\" is invalid: []: Too long: may not be more than 1048576 bytes\ncause FieldValueTooLong []: Too long: may not be more than 1048576 bytes"},
	{3200 * 1024, "413 RequestEntityTooLarge Request entity too large: limit is 3145728"},
}

// TestObjectSize creates objectSizeCases on a simulated cluster.
func TestObjectSize(t *testing.T) {
	for _, c := range objectSizeCases {
		f := newFixture(t)
		if got := outcome(f.c.Create(context.Background(), obj(t, c.crd()))); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range configMapSizes {
		f := newFixture(t)
		if got := outcome(f.c.Create(context.Background(), bigConfigMap(t, "default", c.size))); got != c.want {
			t.Errorf("ConfigMap of %d bytes: got %q, want %q", c.size, got, c.want)
		}
	}
}

// TestJSONSizeBound: the bound is never below the length of the encoding,
// for escaped, multi-byte and invalid strings, numbers and nesting, and
// unknown types are not bounded.
func TestJSONSizeBound(t *testing.T) {
	values := []any{
		nil, true, false, "", "plain", "<&>\u2028\x00\"\\", "ü€𝄞", "\xff\xfe",
		int64(-9223372036854775808), 1.7976931348623157e308, -5e-324, json.Number("12.5e3"),
		map[string]any{"a<": []any{map[string]any{}, []any{}, "x", int64(1)}, "": nil},
	}
	for _, v := range values {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		n, ok := jsonSizeBound(v)
		if !ok || n < len(raw) {
			t.Errorf("jsonSizeBound(%#v) = %d, %v; its JSON has %d bytes", v, n, ok, len(raw))
		}
	}
	if _, ok := jsonSizeBound(struct{}{}); ok {
		t.Error("a struct was bounded")
	}
}
