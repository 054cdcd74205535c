package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestOwnershipHint: a helm item whose install found an object of its
// release without the release's ownership metadata (a CRD seeded along
// with a custom resource) is told how to let the release have it, with the
// release's name and namespace from its configuration; other items get no
// hint.
func TestOwnershipHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, `timeout at: "helm deployer: start reconcile"`)
	di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"apiVersion":"helm.deployer.landscaper.gardener.cloud/v1alpha1",` +
		`"kind":"ProviderConfiguration","name":"kyverno","namespace":"kyverno"}`)}
	di.Status.FirstError = &lsv1alpha1.Error{Message: "Op: InstallHelmRelease - Reason: Install - Message: unable to install helm " +
		"chart release: Unable to continue with install: CustomResourceDefinition \"clusterpolicies.kyverno.io\" in namespace \"\" " +
		"exists and cannot be imported into the current release: invalid ownership metadata; label validation error: missing key " +
		"\"app.kubernetes.io/managed-by\": must be set to \"Helm\""}
	got := ownershipHint(di)
	for _, w := range []string{"DeployItem laas/shoot: helm does not take over CustomResourceDefinition clusterpolicies.kyverno.io,",
		"ownership metadata of release kyverno/kyverno", "install.takeOwnership: true", "simulatedCluster.seeds",
		"meta.helm.sh/release-name: kyverno and meta.helm.sh/release-namespace: kyverno"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	namespaced := failedItem(failed, `Secret "tls" in namespace "apps" exists and cannot be imported into the current release: invalid ownership metadata`)
	if got := ownershipHint(namespaced); !strings.Contains(got, "take over Secret apps/tls,") {
		t.Errorf("namespaced: hint = %q, want Secret apps/tls", got)
	}
	if got := ownershipHint(failedItem(failed, `timeout at: "helm deployer: start reconcile"`)); got != "" {
		t.Errorf("other failure: hint = %q, want none", got)
	}
	if got := ownershipHint(failedItem(lsv1alpha1.DeployItemPhases.Succeeded, namespaced.Status.LastError.Message)); got != "" {
		t.Errorf("succeeded item: hint = %q, want none", got)
	}
}
