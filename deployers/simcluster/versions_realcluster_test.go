package simcluster

import (
	"context"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/lscli/lscli/internal/testcluster"
)

// notSimulated are the group versions a real kube-apiserver serves that the
// simulated cluster does not know at all: none since it serves
// kube-aggregator's APIServices (apiservice.go).
var notSimulated = map[schema.GroupVersion]bool{}

// TestRealClusterServedVersions compares the built-in group versions and
// kinds a real kube-apiserver (of KubernetesVersion, default flags) lists in
// its discovery with those a simulated cluster of the default version
// serves: ServesGroupVersion and its RESTMapper (CRDs aside).
func TestRealClusterServedVersions(t *testing.T) {
	tc := testcluster.Get(t)
	dc, err := discovery.NewDiscoveryClientForConfig(tc.Config)
	if err != nil {
		t.Fatal(err)
	}
	info, err := dc.ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info.GitVersion, KubernetesVersion) {
		t.Skipf("test cluster is %s, the simulated clusters' default %s", info.GitVersion, KubernetesVersion)
	}
	_, lists, err := dc.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	// Other tests install CRDs in the shared cluster.
	crds := &unstructured.UnstructuredList{}
	crds.SetGroupVersionKind(schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinitionList"})
	if err := tc.Client.List(context.Background(), crds); err != nil {
		t.Fatal(err)
	}
	crdGroups := map[string]bool{}
	for _, crd := range crds.Items {
		group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
		crdGroups[group] = true
	}
	real := map[schema.GroupVersionKind]bool{}
	realGV := map[schema.GroupVersion]bool{}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		if notSimulated[gv] || crdGroups[gv.Group] {
			continue
		}
		realGV[gv] = true
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") {
				continue // a subresource
			}
			real[gv.WithKind(r.Kind)] = true
		}
	}
	f := newFixture(t)
	s := f.c.(interface {
		ServesGroupVersion(schema.GroupVersion) bool
	})
	var sim []schema.GroupVersionKind
	simGV := map[schema.GroupVersion]bool{}
	for gvk := range builtin().AllKnownTypes() {
		if isListKind(gvk) || gvk.Version == "__internal" {
			continue
		}
		simGV[gvk.GroupVersion()] = simGV[gvk.GroupVersion()] || s.ServesGroupVersion(gvk.GroupVersion())
		m, err := f.c.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version)
		if err == nil && m.GroupVersionKind == gvk {
			sim = append(sim, gvk)
		}
	}
	for gv := range realGV {
		if !simGV[gv] {
			t.Errorf("real server serves %s, the simulated cluster does not", gv)
		}
	}
	for gv, served := range simGV {
		if served && !realGV[gv] {
			t.Errorf("simulated cluster serves %s, the real server does not", gv)
		}
	}
	for gvk := range real {
		if !slices.Contains(sim, gvk) {
			t.Errorf("real server serves %s, the simulated cluster's RESTMapper does not map it", gvk)
		}
	}
	for _, gvk := range sim {
		if !real[gvk] && !isSubresourceKind(gvk.Kind) {
			t.Errorf("simulated cluster maps %s, the real server does not serve it", gvk)
		}
	}
}
