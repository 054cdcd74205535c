package simcluster

import (
	"maps"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestBuiltinDiscoveryNamesRealCluster: the short names and categories
// lscli resolves `get --target` with are those kube-apiserver's discovery
// lists for its built-in resources, in every served version (a resource
// whose API is off by default, as mutatingadmissionpolicies may be, is
// left out of the comparison when the server does not list it).
func TestBuiltinDiscoveryNamesRealCluster(t *testing.T) {
	tc := testcluster.Get(t)
	dc, err := discovery.NewDiscoveryClientForConfig(tc.Config)
	if err != nil {
		t.Fatal(err)
	}
	_, lists, err := dc.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	shorts := map[string]schema.GroupResource{}
	cats := map[string][]schema.GroupResource{}
	served := map[schema.GroupResource]bool{}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range l.APIResources {
			gr := schema.GroupResource{Group: gv.Group, Resource: r.Name}
			served[gr] = true
			for _, s := range r.ShortNames {
				shorts[s] = gr
			}
			for _, c := range r.Categories {
				if !slices.Contains(cats[c], gr) {
					cats[c] = append(cats[c], gr)
				}
			}
		}
	}
	for s, gr := range shorts {
		if gr.Group == "events.k8s.io" { // core events have the same short name
			gr.Group = ""
		}
		if got, ok := BuiltinShortNames[s]; !ok || got != gr {
			t.Errorf("short name %s: lscli has %v (%v), kube-apiserver lists %v", s, got, ok, gr)
		}
	}
	for s, gr := range BuiltinShortNames {
		if _, ok := shorts[s]; !ok && served[gr] {
			t.Errorf("short name %s of %v: kube-apiserver lists none", s, gr)
		}
	}
	for _, c := range slices.Sorted(maps.Keys(cats)) {
		got := slices.DeleteFunc(slices.Clone(BuiltinCategories[c]), func(gr schema.GroupResource) bool { return !served[gr] })
		if !sameSet(got, cats[c]) {
			t.Errorf("category %s: lscli has %v, kube-apiserver lists %v", c, got, cats[c])
		}
	}
	for c := range BuiltinCategories {
		if _, ok := cats[c]; !ok {
			t.Errorf("category %s: kube-apiserver lists no resource in it", c)
		}
	}
}

// sameSet reports whether a and b hold the same group resources.
func sameSet(a, b []schema.GroupResource) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
