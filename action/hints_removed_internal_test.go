package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestUnservedKindHintRemovedVersion: a built-in API version Kubernetes
// removed is named as such, with the release, not as a kind whose CRD is
// missing; a helm item rendered with helmDeployment: false that applies an
// apiregistration.k8s.io/v1beta1 APIService is told why its chart chose
// that version (prometheus-adapter's does).
func TestUnservedKindHintRemovedVersion(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, `timeout at: "manifest deployer: start reconcile"`)
	di.Status.FirstError = &lsv1alpha1.Error{Message: "unable to get api resources for policy/v1beta1: the server could not find the requested resource"}
	got := unservedKindHint(di)
	for _, w := range []string{"does not serve policy/v1beta1: Kubernetes removed this built-in API version in v1.25",
		"simulatedCluster.kubernetesVersion"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	if strings.Contains(got, "seed a CustomResourceDefinition") || strings.Contains(got, "helmDeployment") {
		t.Errorf("hint = %q, want no advice about CRDs or helmDeployment", got)
	}

	helm := failedItem(failed, `timeout at: "helm deployer: start reconcile"`)
	helm.Status.FirstError = &lsv1alpha1.Error{Message: "unable to get api resources for apiregistration.k8s.io/v1beta1: the server could not find the requested resource"}
	helm.Spec.Type = "landscaper.gardener.cloud/helm"
	helm.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"helmDeployment":false,"chart":{"ref":"./chart"}}`)}
	got = unservedKindHint(helm)
	for _, w := range []string{"removed this built-in API version in v1.22",
		"helmDeployment: false", ".Capabilities.APIVersions", "apiregistration.k8s.io/v1"} {
		if !strings.Contains(got, w) {
			t.Errorf("helm item: hint = %q, want it to contain %q", got, w)
		}
	}
	helm.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"chart":{"ref":"./chart"}}`)}
	if got := unservedKindHint(helm); strings.Contains(got, "helmDeployment") {
		t.Errorf("release: hint = %q, want nothing about helmDeployment", got)
	}
}
