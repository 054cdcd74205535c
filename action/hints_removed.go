package action

import (
	"encoding/json"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/deployers/simcluster"
)

// removedVersionHint is unservedKindHint's text for what (a group version,
// or one and a kind) when it is a built-in API version Kubernetes removed:
// no CRD brings it back, the manifest must use the version that replaced
// it. A helm item rendered with helmDeployment: false that applies an
// apiregistration.k8s.io/v1beta1 APIService is told why its chart chose it:
// Landscaper's template step gives helm's default .Capabilities.APIVersions
// (client-go's scheme, without apiregistration.k8s.io), so a chart that
// asks .Has "apiregistration.k8s.io/v1" (prometheus-adapter,
// metrics-server's older charts) falls back to v1beta1. It is "" for what
// Kubernetes still serves or never served.
func removedVersionHint(di *lsv1alpha1.DeployItem, what, target string) string {
	release := simcluster.RemovedIn(what)
	if release == "" {
		return ""
	}
	older := ", or, to try the old manifest, give the simulated cluster an older release (simulatedCluster.kubernetesVersion in the config file)"
	if simcluster.ServedByNoRelease(what) {
		older = " (a simulated cluster serves it at no release: client-go, which lscli's clusters are built on, no longer has its types)"
	}
	hint := fmt.Sprintf("DeployItem %s/%s: its target cluster (%s) does not serve %s: Kubernetes removed this built-in "+
		"API version in %s (see Kubernetes' deprecated API migration guide), so no cluster of that release or later "+
		"serves it, and no CustomResourceDefinition can: apply the version that replaced it%s",
		di.Namespace, di.Name, target, what, release, older)
	if strings.HasPrefix(what, "apiregistration.k8s.io/") && renderedWithoutRelease(di) {
		hint += ". The chart was rendered with helmDeployment: false, where Landscaper gives templates helm's default " +
			".Capabilities.APIVersions, which lacks apiregistration.k8s.io/v1: a chart that picks its APIService's " +
			"version with .Capabilities.APIVersions.Has falls back to v1beta1 there (a release, helmDeployment: true, " +
			"sees the cluster's versions)"
	}
	return hint
}

// renderedWithoutRelease reports whether di is a helm item with
// helmDeployment: false.
func renderedWithoutRelease(di *lsv1alpha1.DeployItem) bool {
	if di.Spec.Type != "landscaper.gardener.cloud/helm" || di.Spec.Configuration == nil {
		return false
	}
	var cfg struct {
		HelmDeployment *bool `json:"helmDeployment"`
	}
	if err := json.Unmarshal(di.Spec.Configuration.Raw, &cfg); err != nil {
		return false
	}
	return cfg.HelmDeployment != nil && !*cfg.HelmDeployment
}
