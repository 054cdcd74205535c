package action

import (
	"strings"
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

// KIND is matched as kubectl matches it against a cluster's discovery: the
// plural and short names a custom resource's CRD declares (Flux's
// gitrepositories, gitrepo, ks), a built-in kind's plural as Kubernetes
// forms it (networkpolicies), and RESOURCE.GROUP.
func TestSelectClusterObjectsResourceNames(t *testing.T) {
	obj := func(apiVersion, kind, name string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion(apiVersion)
		u.SetKind(kind)
		u.SetName(name)
		return u
	}
	crd := func(group, kind, plural, singular string, short ...any) *unstructured.Unstructured {
		u := obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", plural+"."+group)
		u.Object["spec"] = map[string]any{"group": group, "names": map[string]any{
			"kind": kind, "plural": plural, "singular": singular, "shortNames": short}}
		return u
	}
	objs := []*unstructured.Unstructured{
		crd("source.toolkit.fluxcd.io", "GitRepository", "gitrepositories", "gitrepository", "gitrepo"),
		crd("kustomize.toolkit.fluxcd.io", "Kustomization", "kustomizations", "kustomization", "ks"),
		obj("source.toolkit.fluxcd.io/v1", "GitRepository", "podinfo"),
		obj("kustomize.toolkit.fluxcd.io/v1", "Kustomization", "podinfo"),
		obj("kustomize.config.k8s.io/v1beta1", "Kustomization", "other"),
		obj("networking.k8s.io/v1", "NetworkPolicy", "deny"),
		obj("v1", "ConfigMap", "podinfo"),
	}
	for _, tc := range []struct {
		kind string
		want []string
	}{
		{"gitrepositories", []string{"GitRepository/podinfo"}},
		{"gitrepo", []string{"GitRepository/podinfo"}},
		{"GitRepository", []string{"GitRepository/podinfo"}},
		{"ks", []string{"Kustomization/podinfo"}},
		{"kustomizations.kustomize.toolkit.fluxcd.io", []string{"Kustomization/podinfo"}},
		{"kustomization", []string{"Kustomization/podinfo", "Kustomization/other"}},
		{"networkpolicies", []string{"NetworkPolicy/deny"}},
		{"netpol", []string{"NetworkPolicy/deny"}},
		{"ks,cm", []string{"Kustomization/podinfo", "ConfigMap/podinfo"}},
		{"configmaps.apps", nil},
	} {
		var got []string
		for _, o := range selectClusterObjects(objs, []string{tc.kind}) {
			if o.GetKind() != "CustomResourceDefinition" {
				got = append(got, o.GetKind()+"/"+o.GetName())
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: got %v, want %v", tc.kind, got, tc.want)
		}
	}
}
