package helm

import (
	"context"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
)

// TestSimulatedCluster deploys the test chart to lscli's simulated cluster,
// whose fake controllers make the objects ready at once, in both modes.
func TestSimulatedCluster(t *testing.T) {
	for _, helmDeployment := range []bool{true, false} {
		t.Run(map[bool]string{true: "release", false: "manifests"}[helmDeployment], func(t *testing.T) {
			ctx := context.Background()
			now := epoch
			clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return now },
				IDs: ids.NewSource(1), Version: "v1.33.4"})
			target := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "sim"},
				Spec: lsv1alpha1.TargetSpec{Type: targettypes.KubernetesClusterTargetType}}
			d := New(Options{Clusters: clusters})
			cfg := config(t, map[string]any{"helmDeployment": helmDeployment, "namespace": "apps", "createNamespace": true})
			req := request(deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Init, now), now)
			req.Target = target

			res, err := d.Reconcile(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)
			c, _ := clusters.ForTarget(ctx, target)
			if got := configMap(t, c, "apps", "demo-demo").Data["kubeVersion"]; got != "v1.33.4" {
				t.Errorf("charts see Kubernetes %s, want the simulated cluster's v1.33.4", got)
			}
			if kubetest.Get(t, c, "demo.lscli.io/v1", "Widget", "apps", "demo-demo") == nil {
				t.Error("the Widget was not created")
			}

			now = now.Add(time.Minute)
			req.Now = now
			req.Item.Status.ProviderStatus = res.ProviderStatus
			if res, err := d.Delete(ctx, req); err != nil || res.Phase != "" {
				t.Fatalf("delete = %+v, %v; want done", res, err)
			}
			if kubetest.Get(t, c, "v1", "ConfigMap", "apps", "demo-demo") != nil {
				t.Error("delete left the ConfigMap")
			}
		})
	}
}
