package helm

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

// epoch is the virtual time the tests start at.
var epoch = time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)

// widgetKind is the kind of the test chart's CRD.
var widgetKind = kubetest.Kind{GVK: schema.GroupVersionKind{Group: "demo.lscli.io", Version: "v1", Kind: "Widget"}, Namespaced: true}

// clusterFunc adapts a function to deployer.ClusterClients.
type clusterFunc func(ctx context.Context, t *lsv1alpha1.Target) (client.Client, error)

func (f clusterFunc) ForTarget(ctx context.Context, t *lsv1alpha1.Target) (client.Client, error) {
	return f(ctx, t)
}

// fixedCluster serves c for every Target.
func fixedCluster(c client.Client) deployer.ClusterClients {
	return clusterFunc(func(context.Context, *lsv1alpha1.Target) (client.Client, error) { return c, nil })
}

// newTestCluster is a fake target cluster that knows the test chart's kinds.
// It plays the kubelet (kubetest.Kubelet), so that helm's wait for the test
// chart's hook Pod ends.
func newTestCluster(objs ...client.Object) client.Client {
	return kubetest.Builder(widgetKind).WithObjects(objs...).
		WithStatusSubresource(&appsv1.Deployment{}, &corev1.Pod{}).
		WithInterceptorFuncs(kubetest.Kubelet).Build()
}

// newIdleCluster is newTestCluster without the kubelet: Pods get no status.
func newIdleCluster(objs ...client.Object) client.Client {
	return kubetest.Builder(widgetKind).WithObjects(objs...).
		WithStatusSubresource(&appsv1.Deployment{}, &corev1.Pod{}).Build()
}

// config is a helm ProviderConfiguration for the test chart, with changes.
func config(t testing.TB, changes map[string]any) map[string]any {
	t.Helper()
	cfg := map[string]any{
		"apiVersion": "helm.deployer.landscaper.gardener.cloud/v1alpha1",
		"kind":       "ProviderConfiguration",
		"name":       "demo",
		"namespace":  "default",
		"chart":      map[string]any{"ref": "./testdata/chart"},
	}
	for k, v := range changes {
		cfg[k] = v
	}
	return cfg
}

// deployItem is a deploy item with cfg, picked up at now in phase.
func deployItem(t testing.TB, cfg map[string]any, phase lsv1alpha1.DeployItemPhase, initTime time.Time) *lsv1alpha1.DeployItem {
	t.Helper()
	raw, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	init := metav1.NewTime(initTime)
	return &lsv1alpha1.DeployItem{
		ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "demo-helm"},
		Spec:       lsv1alpha1.DeployItemSpec{Type: Type, Configuration: &runtime.RawExtension{Raw: raw}},
		Status: lsv1alpha1.DeployItemStatus{Phase: phase, JobID: fmt.Sprintf("job-%d", initTime.Unix()),
			TransitionTimes: &lsv1alpha1.TransitionTimes{InitTime: &init}},
	}
}

// request is the framework's request for item at now.
func request(item *lsv1alpha1.DeployItem, now time.Time) deployer.Request {
	return deployer.Request{Item: item, Now: now}
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
