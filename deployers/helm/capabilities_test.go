package helm

import (
	"context"
	"slices"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/simcluster"
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
		"networking.k8s.io/v1", "networking.k8s.io/v1/Ingress", "apiextensions.k8s.io/v1/CustomResourceDefinition"},
		[]string{"monitoring.coreos.com/v1", "monitoring.coreos.com/v1/ServiceMonitor", "v1/Status", "v1/WatchEvent",
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
