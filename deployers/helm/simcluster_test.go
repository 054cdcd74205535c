package helm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/reconcile"
)

// TestSimulatedCluster deploys the test chart to lscli's simulated cluster,
// whose fake controllers make the objects ready at once, in both modes.
func TestSimulatedCluster(t *testing.T) {
	for _, helmDeployment := range []bool{true, false} {
		t.Run(map[bool]string{true: "release", false: "manifests"}[helmDeployment], func(t *testing.T) {
			ctx := context.Background()
			now := epoch
			sim := newSimulated(t, &now, map[string]any{"helmDeployment": helmDeployment, "namespace": "apps", "createNamespace": true})
			d, req, clusters, target := sim.d, sim.req, sim.clusters, sim.target

			res, err := d.Reconcile(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)
			c, _ := clusters.ForTarget(ctx, target)
			if got := configMap(t, c, "apps", "demo-demo").Data["kubeVersion"]; got != "v1.33.4" {
				t.Errorf("charts see Kubernetes %s, want the simulated cluster's v1.33.4", got)
			}
			// A release sees the served kinds; the template step helm's
			// default list of group versions only.
			if got := configMap(t, c, "apps", "demo-demo").Data["servesDeployments"]; got != fmt.Sprint(helmDeployment) {
				t.Errorf(".Capabilities.APIVersions.Has apps/v1/Deployment = %s, want %v", got, helmDeployment)
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

// simulated is a helm deployer on lscli's simulated clusters with the
// request of an item of config(changes), in phase Init, whose Target reaches one
// simulated cluster of Kubernetes v1.33.4.
type simulated struct {
	d        *Deployer
	req      deployer.Request
	clusters *simcluster.Clusters
	target   *lsv1alpha1.Target
}

// newSimulated returns a simulated deployer whose clusters' clock reads
// *now.
func newSimulated(t *testing.T, now *time.Time, changes map[string]any) simulated {
	t.Helper()
	clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return *now },
		IDs: ids.NewSource(1), Version: "v1.33.4"})
	target := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "sim"},
		Spec: lsv1alpha1.TargetSpec{Type: targettypes.KubernetesClusterTargetType}}
	req := request(deployItem(t, config(t, changes), lsv1alpha1.DeployItemPhases.Init, *now), *now)
	req.Target = target
	return simulated{d: New(Options{Clusters: clusters}), req: req, clusters: clusters, target: target}
}

// TestReleaseTooLargeForASecret installs a chart whose release record
// (the chart with its files, gzipped) is larger than a Secret may be: the
// simulated cluster refuses the record as kube-apiserver does, helm's
// install stops before it creates any object, and the item is retried.
func TestReleaseTooLargeForASecret(t *testing.T) {
	dir := t.TempDir()
	blob := make([]byte, 900<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range blob {
		blob[i] = byte(rng.Uint32())
	}
	files := map[string][]byte{
		"Chart.yaml":               []byte("apiVersion: v2\nname: large\nversion: 0.1.0\n"),
		"templates/configmap.yaml": []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: large}\ndata: {size: \"{{ len (.Files.Get \"files/blob.bin\") }}\"}\n"),
		"files/blob.bin":           blob,
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := epoch
	sim := newSimulated(t, &now, map[string]any{"chart": map[string]any{"ref": "registry.example/charts/large:0.1.0"}})
	sim.d = New(Options{Clusters: sim.clusters, Charts: map[string]string{"registry.example/charts/large": dir}})
	_, err := sim.d.Reconcile(context.Background(), sim.req)
	want := `create: failed to create: Secret "sh.helm.release.v1.demo.v1" is invalid: data: Too long: may not be more than 1048576 bytes`
	if err == nil || !strings.Contains(err.Error(), want) || reconcile.IsTerminal(err) {
		t.Fatalf("err = %v, want a retried error with %q", err, want)
	}
	c, _ := sim.clusters.ForTarget(context.Background(), sim.target)
	if kubetest.Get(t, c, "v1", "ConfigMap", "default", "large") != nil {
		t.Error("the install created the ConfigMap, though its release record was refused")
	}
}
