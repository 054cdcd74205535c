package helm

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/internal/testcluster"
)

// TestServedAPIVersionsSimulated checks the API versions a helm release's
// templates see on the simulated cluster: what its discovery serves, the
// built-in group versions and kinds and those of established CRDs, sorted.
func TestServedAPIVersionsSimulated(t *testing.T) {
	ctx := context.Background()
	clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1)})
	c, err := clusters.ForTarget(ctx, newSimulated(t, new(time.Time), nil).target)
	if err != nil {
		t.Fatal(err)
	}
	before, err := servedAPIVersions(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	checkServed(t, before, []string{"v1", "v1/ConfigMap", "v1/Namespace", "apps/v1", "apps/v1/Deployment",
		"policy/v1", "policy/v1/PodDisruptionBudget", "autoscaling/v2", "autoscaling/v2/HorizontalPodAutoscaler",
		"networking.k8s.io/v1", "networking.k8s.io/v1/Ingress", "apiextensions.k8s.io/v1/CustomResourceDefinition",
		"apiregistration.k8s.io/v1", "apiregistration.k8s.io/v1/APIService"},
		[]string{"apiregistration.k8s.io/v1beta1", "apiregistration.k8s.io/v1/APIServiceList", "monitoring.coreos.com/v1", "monitoring.coreos.com/v1/ServiceMonitor", "v1/Status", "v1/WatchEvent",
			"v1/ConfigMapList", "v1/ListOptions", "apps/__internal", "v1/RangeAllocation", "autoscaling/v1/Scale",
			"apiextensions.k8s.io/v1/ConversionReview"})

	if err := c.Create(ctx, serviceMonitorCRD()); err != nil {
		t.Fatal(err)
	}
	after, err := servedAPIVersions(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	checkServed(t, after, []string{"monitoring.coreos.com/v1", "monitoring.coreos.com/v1/ServiceMonitor"},
		[]string{"monitoring.coreos.com/v1alpha1", "monitoring.coreos.com/v1alpha1/ServiceMonitor"})
	if again, _ := servedAPIVersions(ctx, c); !slices.Equal(again, after) {
		t.Errorf("a second discovery differs:\n%v\n%v", again, after)
	}
}

// TestServedAPIVersionsRealCluster reads a real kube-apiserver's discovery.
func TestServedAPIVersionsRealCluster(t *testing.T) {
	tc := testcluster.Get(t)
	got, err := servedAPIVersions(context.Background(), tc.Client)
	if err != nil {
		t.Fatal(err)
	}
	checkServed(t, got, []string{"v1", "v1/ConfigMap", "apps/v1", "apps/v1/Deployment", "policy/v1"}, nil)
}

// checkServed checks that got is sorted, has every one of want and none of
// unwanted.
func checkServed(t *testing.T, got, want, unwanted []string) {
	t.Helper()
	if !slices.IsSorted(got) {
		t.Errorf("API versions not sorted: %v", got)
	}
	for _, v := range want {
		if !slices.Contains(got, v) {
			t.Errorf("API versions lack %q: %v", v, got)
		}
	}
	for _, v := range unwanted {
		if slices.Contains(got, v) {
			t.Errorf("API versions have %q", v)
		}
	}
}

// serviceMonitorCRD is the CRD of prometheus-operator's ServiceMonitor,
// serving v1 only (v1alpha1 is listed but not served).
func serviceMonitorCRD() client.Object {
	schema := &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
		Type: "object", XPreserveUnknownFields: ptrTo(true)}}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "servicemonitors.monitoring.coreos.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "monitoring.coreos.com", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "servicemonitors", Singular: "servicemonitor",
				Kind: "ServiceMonitor", ListKind: "ServiceMonitorList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true, Schema: schema},
				{Name: "v1alpha1", Served: false, Storage: false, Schema: schema},
			},
		},
	}
}

// ptrTo returns a pointer to v.
func ptrTo[T any](v T) *T { return &v }

// TestReadDiscoveryIsReadTransports checks that the in-process discovery a
// release's version set is read with (readDiscovery) gives what client-go's
// discovery client reads from readTransport over HTTP: the same groups,
// resources and version set, on simulated clusters of two Kubernetes
// versions and on a self Target's cluster, before and after CRDs (one
// serving a version of two, one serving two versions, one cluster-scoped).
func TestReadDiscoveryIsReadTransports(t *testing.T) {
	ctx := context.Background()
	own := fakecluster.New(fakecluster.Options{})
	self := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "self"},
		Spec: lsv1alpha1.TargetSpec{Type: targettypes.KubernetesClusterTargetType,
			Configuration: lsv1alpha1.NewAnyJSONPointer([]byte(`{"selfConfig":{"serviceAccount":{"name":"sa"}}}`))}}
	for _, tc := range []struct {
		name    string
		version string
		target  *lsv1alpha1.Target
	}{
		{"default version", "", newSimulated(t, new(time.Time), nil).target},
		{"v1.25", "v1.25.16", newSimulated(t, new(time.Time), nil).target},
		{"self", "", self},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return epoch }, IDs: ids.NewSource(1),
				Version: tc.version, Landscape: own})
			c, err := clusters.ForTarget(ctx, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			compare := func(when string, has ...string) {
				t.Helper()
				dc, err := discovery.NewDiscoveryClientForConfig(lookupConfig(ctx, c))
				if err != nil {
					t.Fatal(err)
				}
				rd := readDiscovery{t: &readTransport{ctx: ctx, c: c}}
				wantGroups, wantLists, err := dc.ServerGroupsAndResources()
				if err != nil {
					t.Fatalf("%s: %v", when, err)
				}
				gotGroups, gotLists, err := rd.ServerGroupsAndResources()
				if err != nil {
					t.Fatalf("%s: %v", when, err)
				}
				if !reflect.DeepEqual(gotGroups, wantGroups) {
					t.Errorf("%s: groups differ:\n in process %s\n over HTTP  %s", when, jsonOf(t, gotGroups), jsonOf(t, wantGroups))
				}
				if !reflect.DeepEqual(gotLists, wantLists) {
					t.Errorf("%s: resources differ:\n in process %s\n over HTTP  %s", when, jsonOf(t, gotLists), jsonOf(t, wantLists))
				}
				want, err := versionSet(dc)
				if err != nil {
					t.Fatal(err)
				}
				got, err := versionSet(rd)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: version sets differ:\n in process %v\n over HTTP  %v", when, got, want)
				}
				checkServed(t, got, has, nil)
				for _, gv := range []string{"v1", "apps/v1", "monitoring.coreos.com/v1", "monitoring.coreos.com/v1alpha1", "example.com/v2", "nothing.example/v1"} {
					wl, werr := dc.ServerResourcesForGroupVersion(gv)
					gl, gerr := rd.ServerResourcesForGroupVersion(gv)
					if !apierrors.IsNotFound(werr) && werr != nil {
						t.Fatalf("%s: %s over HTTP: %v", when, gv, werr)
					}
					if apierrors.IsNotFound(gerr) != apierrors.IsNotFound(werr) || !reflect.DeepEqual(gl, wl) {
						t.Errorf("%s: %s differs:\n in process %s, %v\n over HTTP  %s, %v", when, gv, jsonOf(t, gl), gerr, jsonOf(t, wl), werr)
					}
				}
			}
			has := []string{"v1/ConfigMap", "apps/v1/Deployment"}
			if tc.target == self {
				has = append(has, "landscaper.gardener.cloud/v1alpha1/Installation")
			}
			compare("before CRDs", has...)
			for _, crd := range []client.Object{serviceMonitorCRD(), twoVersionCRD(apiextensionsv1.NamespaceScoped, "widgets", "Widget"),
				twoVersionCRD(apiextensionsv1.ClusterScoped, "gadgets", "Gadget")} {
				if err := c.Create(ctx, crd); err != nil {
					t.Fatal(err)
				}
			}
			compare("after CRDs", append(has, "monitoring.coreos.com/v1/ServiceMonitor", "example.com/v1/Gadget",
				"example.com/v2/Widget")...)
		})
	}
}

// twoVersionCRD is a CRD of group example.com serving v1 and v2.
func twoVersionCRD(scope apiextensionsv1.ResourceScope, plural, kind string) client.Object {
	schema := &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
		Type: "object", XPreserveUnknownFields: ptrTo(true)}}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + ".example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: scope,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: plural, Kind: kind, ListKind: kind + "List"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: false, Schema: schema},
				{Name: "v2", Served: true, Storage: true, Schema: schema},
			},
		},
	}
}

// jsonOf is v as JSON, for messages.
func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
