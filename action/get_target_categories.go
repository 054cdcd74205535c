package action

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/restmapper"

	"github.com/lscli/lscli/deployers/simcluster"
)

// clusterCategories expands the categories of the cluster behind objs, as
// kubectl's discovery category expander does: the built-in ones and those
// the CustomResourceDefinitions among objs declare (spec.names.categories;
// ECK's CRDs are all in "elastic", so `kubectl get elastic` lists every
// Elastic resource).
func clusterCategories(objs []*unstructured.Unstructured) restmapper.CategoryExpander {
	exp := restmapper.SimpleCategoryExpander{Expansions: map[string][]schema.GroupResource{}}
	for c, grs := range simcluster.BuiltinCategories {
		exp.Expansions[c] = append([]schema.GroupResource(nil), grs...)
	}
	eachCRDName(objs, "categories", func(c string, gr schema.GroupResource) {
		exp.Expansions[c] = append(exp.Expansions[c], gr)
	})
	return exp
}

// eachCRDName calls fn with each name of the list spec.names.<field>
// (shortNames, categories) of the CustomResourceDefinitions among objs and
// the resource the CRD defines.
func eachCRDName(objs []*unstructured.Unstructured, field string, fn func(name string, gr schema.GroupResource)) {
	for _, o := range objs {
		if o.GetKind() != "CustomResourceDefinition" || o.GroupVersionKind().Group != "apiextensions.k8s.io" {
			continue
		}
		group, _, _ := unstructured.NestedString(o.Object, "spec", "group")
		plural, _, _ := unstructured.NestedString(o.Object, "spec", "names", "plural")
		names, _, _ := unstructured.NestedStringSlice(o.Object, "spec", "names", field)
		for _, n := range names {
			fn(n, schema.GroupResource{Group: group, Resource: plural})
		}
	}
}

// categoryKinds returns the kinds of category arg that mapper serves, and
// whether arg is a category: cli-runtime's Builder expands a category
// before it maps a resource, and leaves out the resources not served.
func categoryKinds(mapper meta.RESTMapper, cats restmapper.CategoryExpander, arg string) ([]schema.GroupKind, bool) {
	grs, ok := cats.Expand(arg) // as given: cli-runtime does not lower it
	if !ok {
		return nil, false
	}
	var out []schema.GroupKind
	for _, gr := range grs {
		gvks, err := mapper.KindsFor(gr.WithVersion(""))
		if err != nil || len(gvks) == 0 {
			continue
		}
		out = append(out, gvks[0].GroupKind())
	}
	return out, true
}
