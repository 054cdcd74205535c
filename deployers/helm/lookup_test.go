package helm

import (
	"context"
	"reflect"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/engine"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/internal/testcluster"
)

// TestLookupSimulated reads the simulated cluster through helm's own lookup
// function, as chart templates do (see checkLookup).
func TestLookupSimulated(t *testing.T) {
	ctx := context.Background()
	clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1)})
	c, err := clusters.ForTarget(ctx, newSimulated(t, new(time.Time), nil).target)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "apps"}}); err != nil {
		t.Fatal(err)
	}
	checkLookup(t, c, "apps")
}

// TestLookupRealCluster makes the same lookups against a real
// kube-apiserver, through the real cluster's own REST config.
func TestLookupRealCluster(t *testing.T) {
	tc := testcluster.Get(t)
	checkLookup(t, tc.Client, tc.Namespace(t))
}

// checkLookup makes the lookups of chart templates in the cluster of c, in
// the empty namespace ns: an object, a missing one (empty map), a list
// (empty name), a cluster-scoped kind, a kind that a served group version
// does not have (empty map, from kube-apiserver's 404), with an empty name
// too (what helm then reads is kube-apiserver's /api), and a group version
// the cluster does not serve (helm's error).
func checkLookup(t *testing.T, c client.Client, ns string) {
	t.Helper()
	ctx := context.Background()
	for _, obj := range []client.Object{
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "b"}, Data: map[string][]byte{"k": []byte("v")}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "a"}},
	} {
		if err := c.Create(ctx, obj); err != nil {
			t.Fatal(err)
		}
	}
	lookup := engine.NewLookupFunction(lookupConfig(ctx, c))

	got, err := lookup("v1", "Secret", ns, "b")
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := got["data"].(map[string]any); data["k"] != "dg==" || got["kind"] != "Secret" {
		t.Errorf("lookup Secret b = %v, want the Secret with data k: dg==", got)
	}
	for _, args := range [][4]string{
		{"v1", "Secret", ns, "missing"},
		{"v1", "Widget", ns, "a"},
	} {
		got, err := lookup(args[0], args[1], args[2], args[3])
		if err != nil || !reflect.DeepEqual(got, map[string]any{}) {
			t.Errorf("lookup %v = %v, %v; want an empty map", args, got, err)
		}
	}
	list, err := lookup("v1", "Secret", ns, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, item := range list["items"].([]any) {
		names = append(names, item.(map[string]any)["metadata"].(map[string]any)["name"].(string))
	}
	if list["kind"] != "SecretList" || !reflect.DeepEqual(names, []string{"a", "b"}) {
		t.Errorf("lookup of the Secrets = %v %v, want SecretList [a b]", list["kind"], names)
	}
	none, err := lookup("apps/v1", "Deployment", ns, "")
	if items, _ := none["items"].([]any); err != nil || none["kind"] != "DeploymentList" || len(items) != 0 {
		t.Errorf("lookup of no Deployments = %v, %v; want an empty DeploymentList", none, err)
	}
	if got, err := lookup("v1", "Namespace", "", ns); err != nil || got["kind"] != "Namespace" {
		t.Errorf("lookup Namespace %s = %v, %v", ns, got, err)
	}
	// helm finds no resource and lists /api, the core API's versions.
	if odd, err := lookup("apps/v1", "Widget", ns, ""); err != nil || odd["kind"] != "APIVersions" {
		t.Errorf("lookup of all Widgets of apps/v1 = %v, %v; want APIVersions", odd, err)
	}
	// kube-aggregator's APIServices, cluster-scoped; a local one is
	// Available (reason Local) from its create.
	apiService := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
		"metadata": map[string]any{"name": "v1." + ns + ".lookup.lscli.test"},
		"spec": map[string]any{"group": ns + ".lookup.lscli.test", "version": "v1",
			"groupPriorityMinimum": int64(1000), "versionPriority": int64(15)}}}
	if err := c.Create(ctx, apiService); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(ctx, apiService) })
	got, err = lookup("apiregistration.k8s.io/v1", "APIService", "", apiService.GetName())
	if conds, _, _ := unstructured.NestedSlice(got, "status", "conditions"); err != nil || len(conds) != 1 ||
		conds[0].(map[string]any)["reason"] != "Local" {
		t.Errorf("lookup APIService %s = %v, %v; want it Available (Local)", apiService.GetName(), got, err)
	}
	_, err = lookup("example.com/v1", "Widget", ns, "a")
	want := "unable to get apiresource from unstructured: example.com/v1, Kind=Widget: the server could not find the requested resource"
	if err == nil || err.Error() != want {
		t.Errorf("lookup of an unserved kind: err = %v, want %q", err, want)
	}
}
