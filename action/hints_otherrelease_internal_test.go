package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// otherReleaseMessage is helm's refusal of an upgrade of
// monitoring/prometheus-adapter whose chart renders the APIService that
// release kube-system/metrics-server owns (realproject25_prometheus_adapter).
const otherReleaseMessage = "Op: UpgradeHelmRelease - Reason: Update - Message: unable to upgrade helm chart release: Unable to " +
	"continue with update: APIService \"v1beta1.metrics.k8s.io\" in namespace \"\" exists and cannot be imported into the " +
	"current release: invalid ownership metadata; annotation validation error: key \"meta.helm.sh/release-name\" must equal " +
	"\"prometheus-adapter\": current value is \"metrics-server\"; annotation validation error: key " +
	"\"meta.helm.sh/release-namespace\" must equal \"monitoring\": current value is \"kube-system\""

// helmItem is a deploy item of the helm deployer for release
// namespace/release.
func helmItem(name, namespace, release string) lsv1alpha1.DeployItem {
	return lsv1alpha1.DeployItem{
		ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: name},
		Spec: lsv1alpha1.DeployItemSpec{Type: "landscaper.gardener.cloud/helm", Configuration: &runtime.RawExtension{Raw: []byte(
			`{"apiVersion":"helm.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderConfiguration","name":"` +
				release + `","namespace":"` + namespace + `"}`)}},
	}
}

// TestOtherReleaseHint: a helm item whose upgrade renders an object that
// another helm release owns is told which release (and which of the
// installation's items deploys it), that one object belongs to one
// release and to render it in one chart only; the hint that the object
// has no ownership metadata is not given for it. An object without
// another release's metadata gets no such hint.
func TestOtherReleaseHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, otherReleaseMessage)
	di.Name = "adapter-adapter-zqg6q"
	dis := []lsv1alpha1.DeployItem{*di, helmItem("adapter-metrics-server-j7wjv", "kube-system", "metrics-server")}
	got := otherReleaseHint(di, dis)
	for _, w := range []string{
		"DeployItem laas/adapter-adapter-zqg6q: APIService v1beta1.metrics.k8s.io belongs to helm release kube-system/metrics-server",
		"(DeployItem demo/adapter-metrics-server-j7wjv)",
		"one release only",
		"Render it in one of the two charts",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	if h := ownershipHint(di); h != "" {
		t.Errorf("ownershipHint = %q, want none for an object of another release", h)
	}
	alone := otherReleaseHint(di, dis[:1])
	if !strings.Contains(alone, "belongs to helm release kube-system/metrics-server,") || strings.Contains(alone, "(DeployItem") {
		t.Errorf("no item of the release: hint = %q, want the release without an item", alone)
	}
	sameNS := failedItem(failed, `Secret "tls" in namespace "apps" exists and cannot be imported into the current release: `+
		`invalid ownership metadata; annotation validation error: key "meta.helm.sh/release-name" must equal "a": current value is "b"`)
	sameNS.Spec.Configuration = helmItem("x", "apps", "a").Spec.Configuration
	if got := otherReleaseHint(sameNS, nil); !strings.Contains(got, "Secret apps/tls belongs to helm release apps/b,") {
		t.Errorf("same namespace: hint = %q, want release apps/b", got)
	}
	unowned := failedItem(failed, `Secret "tls" in namespace "apps" exists and cannot be imported into the current release: `+
		`invalid ownership metadata; label validation error: missing key "app.kubernetes.io/managed-by": must be set to "Helm"`)
	if got := otherReleaseHint(unowned, nil); got != "" {
		t.Errorf("unowned: hint = %q, want none", got)
	}
	if ownershipHint(unowned) == "" {
		t.Errorf("unowned: ownershipHint empty, want its hint")
	}
}

// TestOwnershipHintUpgrade: an upgrade that found an object without
// ownership metadata is told Landscaper's upgrade knob
// (helmDeploymentConfig.upgrade.takeOwnership, which helm's upgrade reads;
// install.takeOwnership only reaches an install), an install the install's.
func TestOwnershipHintUpgrade(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	const conflict = `Secret "tls" in namespace "apps" exists and cannot be imported into the current release: invalid ownership ` +
		`metadata; label validation error: missing key "app.kubernetes.io/managed-by": must be set to "Helm"`
	up := failedItem(failed, "unable to upgrade helm chart release: Unable to continue with update: "+conflict)
	if got := ownershipHint(up); !strings.Contains(got, "upgrade.takeOwnership: true") || strings.Contains(got, "install.takeOwnership") {
		t.Errorf("upgrade: hint = %q, want upgrade.takeOwnership", got)
	}
	in := failedItem(failed, "unable to install helm chart release: Unable to continue with install: "+conflict)
	if got := ownershipHint(in); !strings.Contains(got, "install.takeOwnership: true") {
		t.Errorf("install: hint = %q, want install.takeOwnership", got)
	}
}
