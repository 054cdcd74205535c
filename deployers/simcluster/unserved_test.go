package simcluster

import (
	"context"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// unservedCRDManifest is a CRD whose version v1beta1 has served: false.
const unservedCRDManifest = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: doohickeys.unserved.example.com}
spec:
  group: unserved.example.com
  names: {kind: Doohickey, plural: doohickeys, singular: doohickey, listKind: DoohickeyList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
  - name: v1beta1
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`

func TestUnservedVersions(t *testing.T) {
	f := newFixture(t)
	f.create(unservedCRDManifest)
	ctx := context.Background()
	want := []UnservedVersion{{CRD: "doohickeys.unserved.example.com", Kind: "Doohickey", Served: []string{"v1"}}}
	for _, tc := range []struct {
		name string
		gv   schema.GroupVersion
		kind string
		want []UnservedVersion
	}{
		{"group version", schema.GroupVersion{Group: "unserved.example.com", Version: "v1beta1"}, "", want},
		{"kind", schema.GroupVersion{Group: "unserved.example.com", Version: "v1beta1"}, "Doohickey", want},
		{"other kind", schema.GroupVersion{Group: "unserved.example.com", Version: "v1beta1"}, "Gizmo", nil},
		{"served version", schema.GroupVersion{Group: "unserved.example.com", Version: "v1"}, "", nil},
		{"undefined version", schema.GroupVersion{Group: "unserved.example.com", Version: "v2"}, "", nil},
		{"other group", schema.GroupVersion{Group: "example.com", Version: "v1beta1"}, "", nil},
	} {
		got, err := f.clusters.UnservedVersions(ctx, f.target, tc.gv, tc.kind)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	// The simulated cluster serves the version as a real one does: not at all.
	u := obj(t, "apiVersion: unserved.example.com/v1beta1\nkind: Doohickey\nmetadata: {name: d, namespace: default}\n")
	if err := f.c.Create(ctx, u); err == nil || err.Error() != `no matches for kind "Doohickey" in version "unserved.example.com/v1beta1"` {
		t.Errorf("create of an unserved version: %v", err)
	}
}
