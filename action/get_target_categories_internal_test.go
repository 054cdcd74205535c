package action

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestSelectClusterObjectsCategories: a category a CRD declares (ECK's
// "elastic") and the built-in "all" select the objects of their kinds that
// the cluster serves, as `kubectl get elastic` and `kubectl get all` do;
// a kind's own name still resolves.
func TestSelectClusterObjectsCategories(t *testing.T) {
	crd := clusterCRD("source.toolkit.fluxcd.io", "GitRepository", "gitrepositories", "gitrepository")
	_ = unstructured.SetNestedStringSlice(crd.Object, []string{"flux"}, "spec", "names", "categories")
	objs := []*unstructured.Unstructured{crd,
		clusterObj("source.toolkit.fluxcd.io/v1", "GitRepository", "a", "repo"),
		clusterObj("v1", "ConfigMap", "a", "cm"), clusterObj("v1", "Service", "a", "svc"),
		clusterObj("apps/v1", "Deployment", "a", "web")}
	for _, tc := range []struct {
		arg  string
		want []string
	}{
		{"flux", []string{"GitRepository a/repo"}},
		{"all", []string{"Service a/svc", "Deployment a/web"}},
		{"cm", []string{"ConfigMap a/cm"}},
	} {
		got, _, err := selectClusterObjects(testMapper(), objs, []ClusterRequest{{Resource: tc.arg}})
		if err != nil {
			t.Fatalf("%s: %v", tc.arg, err)
		}
		var names []string
		for _, o := range got {
			names = append(names, o.GetKind()+" "+o.GetNamespace()+"/"+o.GetName())
		}
		if !slices.Equal(names, tc.want) {
			t.Errorf("%s: objects = %q, want %q", tc.arg, names, tc.want)
		}
	}
}
