package action

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func clusterObj(apiVersion, kind, namespace, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace(namespace)
	u.SetName(name)
	return u
}

func clusterCRD(group, kind, plural, singular string, short ...any) *unstructured.Unstructured {
	u := clusterObj("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", plural+"."+group)
	u.Object["spec"] = map[string]any{"group": group, "names": map[string]any{
		"kind": kind, "plural": plural, "singular": singular, "shortNames": short}}
	return u
}

// testMapper maps the kinds of the tests as the simulated cluster's
// RESTMapper does: built-in kinds by their guessed plural and singular, a
// custom resource by its CRD's names.
func testMapper() meta.RESTMapper {
	m := meta.NewDefaultRESTMapper(nil)
	for _, gvk := range []schema.GroupVersionKind{
		{Version: "v1", Kind: "ConfigMap"}, {Version: "v1", Kind: "Service"},
		{Group: "apps", Version: "v1", Kind: "Deployment"},
		{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"},
		{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"},
	} {
		m.Add(gvk, meta.RESTScopeNamespace)
	}
	for _, c := range []struct{ gv, kind, plural, singular string }{
		{"source.toolkit.fluxcd.io/v1", "GitRepository", "gitrepositories", "gitrepository"},
		{"kustomize.toolkit.fluxcd.io/v1", "Kustomization", "kustomizations", "kustomization"},
		{"kustomize.config.k8s.io/v1beta1", "Kustomization", "kustomizations", "kustomization"},
		{"tekton.dev/v1beta1", "Task", "tasks", "task"},
	} {
		gv, _ := schema.ParseGroupVersion(c.gv)
		m.AddSpecific(gv.WithKind(c.kind), gv.WithResource(c.plural), gv.WithResource(c.singular), meta.RESTScopeNamespace)
	}
	return m
}

// A cluster object's NAME may be NAMESPACE/NAME, as lscli's messages name
// the objects a deployer applies (unable to create resource test/cm): a helm
// chart that puts one name in several namespaces is narrowed to one.
func TestSelectClusterObjectsNamespacedName(t *testing.T) {
	objs := []*unstructured.Unstructured{
		clusterObj("v1", "ConfigMap", "a", "x"), clusterObj("v1", "ConfigMap", "b", "x"), clusterObj("v1", "ConfigMap", "b", "y")}
	for _, tc := range []struct {
		name    string
		want    string
		missing string
	}{
		{"x", "a/x b/x", ""},
		{"b/x", "b/x", ""},
		{"c/x", "", `cm "c/x"`},
	} {
		got, missing, err := selectClusterObjects(testMapper(), objs, []ClusterRequest{{Resource: "cm", Names: []string{tc.name}}})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, o := range got {
			names = append(names, o.GetNamespace()+"/"+o.GetName())
		}
		if strings.Join(names, " ") != tc.want || strings.Join(missing, " ") != tc.missing {
			t.Errorf("cm %s: got %v missing %v, want %v missing %v", tc.name, names, missing, tc.want, tc.missing)
		}
	}
}

// RESOURCE is resolved as kubectl resolves it (cli-runtime's
// Builder.mappingFor against the cluster's RESTMapper and the short names
// of its discovery): plural, singular, short name (built-in, or from a
// CRD's shortNames), kind in any case, RESOURCE.GROUP, KIND.GROUP,
// RESOURCE.VERSION.GROUP, KIND.VERSION.GROUP, comma-separated lists, and
// TYPE/NAME arguments (NAMESPACE/NAME after a separate TYPE stays a
// name, as lscli names objects). A resource the cluster does not serve is kubectl's
// error.
func TestSelectClusterObjectsResourceForms(t *testing.T) {
	objs := []*unstructured.Unstructured{
		clusterCRD("source.toolkit.fluxcd.io", "GitRepository", "gitrepositories", "gitrepository", "gitrepo"),
		clusterCRD("kustomize.toolkit.fluxcd.io", "Kustomization", "kustomizations", "kustomization", "ks"),
		clusterCRD("tekton.dev", "Task", "tasks", "task"),
		clusterObj("source.toolkit.fluxcd.io/v1", "GitRepository", "default", "podinfo"),
		clusterObj("kustomize.toolkit.fluxcd.io/v1", "Kustomization", "default", "podinfo"),
		clusterObj("kustomize.config.k8s.io/v1beta1", "Kustomization", "default", "other"),
		clusterObj("tekton.dev/v1beta1", "Task", "default", "build"),
		clusterObj("networking.k8s.io/v1", "NetworkPolicy", "default", "deny"),
		clusterObj("v1", "ConfigMap", "default", "podinfo"),
		clusterObj("v1", "Service", "default", "web"),
		clusterObj("apps/v1", "Deployment", "default", "web"),
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tasks"}, "Task/build"},
		{[]string{"task"}, "Task/build"},
		{[]string{"Task"}, "Task/build"},
		{[]string{"TASKS"}, "Task/build"},
		{[]string{"tasks.tekton.dev"}, "Task/build"},
		{[]string{"Task.tekton.dev"}, "Task/build"},
		{[]string{"tasks.v1beta1.tekton.dev"}, "Task/build"},
		{[]string{"Task.v1beta1.tekton.dev"}, "Task/build"},
		{[]string{"gitrepositories"}, "GitRepository/podinfo"},
		{[]string{"gitrepo"}, "GitRepository/podinfo"},
		{[]string{"GitRepository"}, "GitRepository/podinfo"},
		{[]string{"ks"}, "Kustomization/podinfo"},
		{[]string{"ks.kustomize.toolkit.fluxcd.io"}, "Kustomization/podinfo"},
		{[]string{"kustomizations.kustomize.toolkit.fluxcd.io"}, "Kustomization/podinfo"},
		{[]string{"kustomization"}, "Kustomization/podinfo Kustomization/other"},
		{[]string{"networkpolicies"}, "NetworkPolicy/deny"},
		{[]string{"netpol"}, "NetworkPolicy/deny"},
		{[]string{"deploy"}, "Deployment/web"},
		{[]string{"deployments.apps"}, "Deployment/web"},
		{[]string{"deployments.v1.apps"}, "Deployment/web"},
		{[]string{"Deployment.v1.apps"}, "Deployment/web"},
		{[]string{"ks,cm"}, "Kustomization/podinfo ConfigMap/podinfo"},
		{[]string{"deploy,svc", "web"}, "Deployment/web Service/web"},
		{[]string{"svc/web", "deploy/web"}, "Service/web Deployment/web"},
		{[]string{"tasks.v1beta1.tekton.dev/build"}, "Task/build"},
		{[]string{"tasks", "build"}, "Task/build"},
		{[]string{"tasks", "default/build"}, "Task/build"},
		{[]string{"configmaps.apps"}, `error: the server doesn't have a resource type "configmaps" in group "apps"`},
		{[]string{"tasks.v1.tekton.dev"}, `error: the server doesn't have a resource type "tasks" in group "v1.tekton.dev"`},
		{[]string{"nope"}, `error: the server doesn't have a resource type "nope"`},
		{[]string{"svc,nope"}, `error: the server doesn't have a resource type "nope"`},
		{[]string{"svc/web", "deploy"}, "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'lscli get --target T resource/<resource_name>' instead of 'lscli get --target T resource resource/<resource_name>')"},
		{[]string{"deploy/web/x"}, "error: arguments in resource/name form may not have more than one slash"},
		{[]string{"deploy,svc/web"}, "error: arguments in resource/name form must have a single resource and name"},
	} {
		var got []string
		reqs, err := ParseClusterArgs(tc.args)
		if err == nil {
			var objsOut []*unstructured.Unstructured
			objsOut, _, err = selectClusterObjects(testMapper(), objs, reqs)
			for _, o := range objsOut {
				if o.GetKind() != "CustomResourceDefinition" {
					got = append(got, o.GetKind()+"/"+o.GetName())
				}
			}
		}
		if err != nil {
			got = []string{"error: " + err.Error()}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q: got %q, want %q", tc.args, strings.Join(got, " "), tc.want)
		}
	}
}
