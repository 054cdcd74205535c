package action

import (
	"encoding/json"
	"fmt"
	"regexp"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
)

// otherReleaseName and otherReleaseNamespace match the part of helm's
// ownership refusal (helm pkg/action/validate.go
// checkOwnership/requireValue) that names the release whose metadata the
// object carries: the value its release-name (and, when it differs,
// release-namespace) annotation has.
var (
	otherReleaseName      = regexp.MustCompile(`key "meta\.helm\.sh/release-name" must equal "[^"]*": current value is "([^"]+)"`)
	otherReleaseNamespace = regexp.MustCompile(`key "meta\.helm\.sh/release-namespace" must equal "[^"]*": current value is "([^"]+)"`)
)

// refusedObjectKey is the namespace/name of the object an error of di
// names: key, when the manifest applier's "resource NS/NAME" gave it, else
// name, which helm's errors give alone, in the release's namespace.
func refusedObjectKey(di *lsv1alpha1.DeployItem, key, name string) string {
	if key != "" {
		return key
	}
	if ns, _, ok := helmRelease(di); ok && ns != "" {
		return ns + "/" + name
	}
	return name
}

// helmRelease is the release namespace/name of a helm item's
// configuration; ok false for an item without one.
func helmRelease(di *lsv1alpha1.DeployItem) (namespace, name string, ok bool) {
	if di.Spec.Configuration == nil {
		return "", "", false
	}
	cfg := &helmv1alpha1.ProviderConfiguration{}
	if json.Unmarshal(di.Spec.Configuration.Raw, cfg) != nil || cfg.Name == "" {
		return "", "", false
	}
	return cfg.Namespace, cfg.Name, true
}

// otherReleaseOwner is the release namespace/name whose ownership
// annotations the object of helm's refusal in di's errors carries: an
// object another helm release owns; ok false when the refusal is about an
// object without the metadata (or di has none).
func otherReleaseOwner(di *lsv1alpha1.DeployItem) (object, namespace, name string, ok bool) {
	if di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed {
		return "", "", "", false
	}
	m, msg := errorMatch(di, ownershipConflict) // hints.go
	if m == nil {
		return "", "", "", false
	}
	n := otherReleaseName.FindStringSubmatch(msg)
	if n == nil {
		return "", "", "", false
	}
	namespace, _, _ = helmRelease(di)
	if ns := otherReleaseNamespace.FindStringSubmatch(msg); ns != nil {
		namespace = ns[1]
	}
	return conflictObject(m), namespace, n[1], true
}

// otherReleaseHint says, for a helm item whose install or upgrade failed
// because its chart renders an object that another helm release owns
// (two charts that both ship it, such as prometheus-adapter's
// rules.resource and metrics-server, both rendering APIService
// v1beta1.metrics.k8s.io), which release owns it and which of dis deploys
// that release, and that an object belongs to one release only: render
// it in one chart. takeOwnership is no way out here: both releases would
// write the object and the uninstall of either would delete it. It is
// empty for other items.
func otherReleaseHint(di *lsv1alpha1.DeployItem, dis []lsv1alpha1.DeployItem) string {
	object, namespace, name, ok := otherReleaseOwner(di)
	if !ok {
		return ""
	}
	owner := ""
	for i := range dis {
		if ns, n, ok := helmRelease(&dis[i]); ok && ns == namespace && n == name && dis[i].Name != di.Name {
			owner = fmt.Sprintf(" (DeployItem %s/%s)", dis[i].Namespace, dis[i].Name)
			break
		}
	}
	return fmt.Sprintf("DeployItem %s/%s: %s belongs to helm release %s/%s%s, whose chart renders it too. An object "+
		"belongs to one release only: helm stops before it changes anything, on a real cluster too. Render it in one "+
		"of the two charts only (turn it off in the other's values); takeOwnership would leave both releases writing "+
		"it, and the uninstall of either would delete it", di.Namespace, di.Name, object, namespace, name, owner)
}
