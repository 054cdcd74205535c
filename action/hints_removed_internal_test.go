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

// TestUnservedKindHintHelmRelease: a helm release (helmDeployment: true,
// the default) that renders a kind in a version its cluster does not serve
// fails in helm's words, "resource mapping not found ... no matches for
// kind", which the hint reads too: vasu1124/introspect's chart renders an
// autoscaling/v2beta2 HorizontalPodAutoscaler, which Kubernetes removed in
// v1.26.
func TestUnservedKindHintHelmRelease(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	helm := failedItem(failed, `timeout at: "helm deployer: start reconcile"`)
	helm.Spec.Type = "landscaper.gardener.cloud/helm"
	helm.Status.FirstError = &lsv1alpha1.Error{Message: "creating 1 resource(s)\nOp: InstallHelmRelease - Reason: Install - Message: " +
		`unable to install helm chart release: unable to build kubernetes objects from release manifest: resource mapping not found ` +
		`for name: "introspect" namespace: "" from "": no matches for kind "HorizontalPodAutoscaler" in version "autoscaling/v2beta2"` +
		"\nensure CRDs are installed first"}
	got := unservedKindHint(helm)
	if w := "does not serve autoscaling/v2beta2, Kind=HorizontalPodAutoscaler: Kubernetes removed this built-in API version in v1.26"; !strings.Contains(got, w) {
		t.Errorf("hint = %q, want it to contain %q", got, w)
	}
	if strings.Contains(got, "kubernetesVersion") || !strings.Contains(got, "serves it at no release") {
		t.Errorf("hint = %q, want no advice to use an older release, which lscli cannot serve it at", got)
	}
	helm.Status.FirstError.Message = strings.ReplaceAll(helm.Status.FirstError.Message, "autoscaling/v2beta2", "example.com/v1")
	helm.Status.FirstError.Message = strings.ReplaceAll(helm.Status.FirstError.Message, "HorizontalPodAutoscaler", "Widget")
	if got := unservedKindHint(helm); !strings.Contains(got, "does not serve example.com/v1, Kind=Widget") || !strings.Contains(got, "CustomResourceDefinition") {
		t.Errorf("custom kind: hint = %q", got)
	}
}
