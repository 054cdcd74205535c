package helm

import (
	"context"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

// TestUnknownFieldsDropped installs a chart whose Deployment has fields its
// kind does not have. helm's kube client creates objects without the
// fieldValidation parameter (helm.sh/helm/v3 pkg/kube/client.go,
// createResource), and its Build skips client-side validation when the
// server supports that parameter (k8s.io/kubectl pkg/validation,
// paramVerifyingSchema), so kube-apiserver applies its default, Warn: it
// drops the unknown fields and stores the rest. The release succeeds.
func TestUnknownFieldsDropped(t *testing.T) {
	for _, helmDeployment := range []bool{true, false} {
		t.Run(map[bool]string{true: "release", false: "manifests"}[helmDeployment], func(t *testing.T) {
			ctx := context.Background()
			now := epoch
			sim := newSimulated(t, &now, map[string]any{"helmDeployment": helmDeployment, "namespace": "apps", "createNamespace": true,
				"chart": map[string]any{"ref": "./testdata/unknown-fields"}})

			res, err := sim.d.Reconcile(ctx, sim.req)
			if err != nil {
				t.Fatal(err)
			}
			wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)
			c, _ := sim.clusters.ForTarget(ctx, sim.target)
			dep := kubetest.Get(t, c, "apps/v1", "Deployment", "apps", "demo")
			if dep == nil {
				t.Fatal("the Deployment was not created")
			}
			if _, ok, _ := unstructured.NestedFieldNoCopy(dep.Object, "spec", "replica"); ok {
				t.Error("spec.replica was stored")
			}
			tsc, _, _ := unstructured.NestedSlice(dep.Object, "spec", "template", "spec", "topologySpreadConstraints")
			if len(tsc) != 1 {
				t.Fatalf("topologySpreadConstraints = %v, want one", tsc)
			}
			if _, ok := tsc[0].(map[string]any)["matchLabels"]; ok {
				t.Errorf("the constraint's matchLabels was stored: %v", tsc[0])
			}
			if got, _, _ := unstructured.NestedInt64(dep.Object, "spec", "replicas"); got != 1 {
				t.Errorf("spec.replicas = %d, want 1", got)
			}
		})
	}
}
