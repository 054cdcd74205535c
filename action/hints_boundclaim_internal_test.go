package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// boundClaimError is the manifest deployer's error for an update of bound
// claim default/data without its volumeName, as the simulated cluster (and
// kube-apiserver) words it.
const boundClaimError = `unable to update resource default/data: PersistentVolumeClaim "data" is invalid: spec: Forbidden: ` +
	"spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n" +
	"@@ -9,7 +9,7 @@\n" +
	"    \"storage\": \"1Gi\"\n   }\n  },\n" +
	"- \"VolumeName\": \"pvc-f174571e-6fd4-4ad3-a10a-c4aafce93423\",\n" +
	"+ \"VolumeName\": \"\",\n" +
	"  \"StorageClassName\": null,\n"

// TestBoundClaimHint: a manifest item refused because its claim's manifest
// drops the volumeName of the bound claim is told so, with the volume's
// name and the ways out (volumeName, policy immutable, updateStrategy
// merge); a helm item with helmDeployment: false is told to deploy a
// release; other refusals of a claim's spec get no hint.
func TestBoundClaimHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, `timeout at: "manifest deployer: start reconcile"`)
	di.Status.FirstError = &lsv1alpha1.Error{Operation: "ApplyObjects", Reason: "ApplyNewObject", Message: boundClaimError}
	got := boundClaimHint(di)
	for _, w := range []string{"DeployItem laas/shoot: PersistentVolumeClaim default/data is bound to PersistentVolume pvc-f174571e-6fd4-4ad3-a10a-c4aafce93423",
		"a real cluster refuses as well", "`volumeName: pvc-f174571e-6fd4-4ad3-a10a-c4aafce93423`", "policy: immutable", "updateStrategy: merge"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}

	helm := failedItem(failed, `timeout at: "helm deployer: start reconcile"`)
	helm.Spec.Type = "landscaper.gardener.cloud/helm"
	helm.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"helmDeployment":false,"chart":{"ref":"./chart"}}`)}
	helm.Status.FirstError = &lsv1alpha1.Error{Message: boundClaimError}
	if got := boundClaimHint(helm); !strings.Contains(got, "helmDeployment: true") || strings.Contains(got, "updateStrategy") {
		t.Errorf("helm item: hint = %q, want helmDeployment: true and no manifest advice", got)
	}

	other := failedItem(failed, `timeout at: "manifest deployer: start reconcile"`)
	other.Status.FirstError = &lsv1alpha1.Error{Message: strings.Replace(boundClaimError,
		"- \"VolumeName\": \"pvc-f174571e-6fd4-4ad3-a10a-c4aafce93423\",\n+ \"VolumeName\": \"\",\n",
		"- \"StorageClassName\": null,\n+ \"StorageClassName\": \"fast\",\n", 1)}
	if got := boundClaimHint(other); got != "" {
		t.Errorf("another change of the spec: hint = %q, want none", got)
	}
	if got := boundClaimHint(failedItem(lsv1alpha1.DeployItemPhases.Succeeded, boundClaimError)); got != "" {
		t.Errorf("succeeded item: hint = %q, want none", got)
	}
}
