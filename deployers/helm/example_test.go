package helm_test

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/helm"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

// oneCluster serves the same cluster for every Target.
type oneCluster struct{ client.Client }

func (o oneCluster) ForTarget(context.Context, *lsv1alpha1.Target) (client.Client, error) {
	return o.Client, nil
}

// A deploy item installs a local chart as a helm release; its exports come
// from the chart values. The chart's OCI reference is mapped to a local
// folder, since lscli downloads nothing.
func ExampleDeployer_Reconcile() {
	// The fake cluster plays the kubelet: the chart's hook Pod succeeds.
	cluster := kubetest.Builder(kubetest.Kind{GVK: schema.GroupVersionKind{Group: "demo.lscli.io", Version: "v1", Kind: "Widget"}, Namespaced: true}).
		WithStatusSubresource(&corev1.Pod{}).WithInterceptorFuncs(kubetest.Kubelet).Build()
	d := helm.New(helm.Options{Clusters: oneCluster{cluster},
		Charts: map[string]string{"registry.example/charts/demo": "./testdata/chart"}})

	now := time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)
	item := &lsv1alpha1.DeployItem{
		ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "demo"},
		Spec: lsv1alpha1.DeployItemSpec{Type: helm.Type, Configuration: &runtime.RawExtension{Raw: []byte(`{
			"name": "demo", "namespace": "default",
			"chart": {"ref": "registry.example/charts/demo:0.1.0"},
			"values": {"greeting": "hi"},
			"readinessChecks": {"disableDefault": true},
			"exports": {"exports": [{"key": "greeting", "jsonPath": ".Values.greeting"}]}}`)}},
		Status: lsv1alpha1.DeployItemStatus{Phase: lsv1alpha1.DeployItemPhases.Init, JobID: "job-1"},
	}
	res, err := d.Reconcile(context.Background(), deployer.Request{Item: item, Now: now})
	if err != nil {
		fmt.Println(err)
		return
	}
	cm := &corev1.ConfigMap{}
	_ = cluster.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "demo-demo"}, cm)
	fmt.Println(res.Phase, string(res.Exports))
	fmt.Println(cm.Data["greeting"], cm.Labels["app.kubernetes.io/instance"], cm.Annotations["meta.helm.sh/release-name"])
	// Output:
	// Succeeded {"greeting":"hi"}
	// HI demo demo
}
