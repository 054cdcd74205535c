package action

import (
	"fmt"
	"regexp"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// invalidHook matches helm's error for a hook object kube-apiserver
// rejected as invalid (helm's execHook: "warning: Hook EVENT PATH failed:"
// and the API server's Invalid error, "KIND[.GROUP] "NAME" is invalid:
// FIELD ERRORS"): the event, the template, the kind, the name, the errors.
var invalidHook = regexp.MustCompile(`Hook (\S+) (\S+) failed: \d+ errors? occurred:\s*\* (\w+)(?:\.\S+)? "([^"]+)" is invalid: ([^\n]+)`)

// invalidHookHint says, for a helm item whose install or upgrade failed
// because kube-apiserver rejected one of the chart's hook objects as
// rendered, that the chart renders it so (a real cluster rejects it too),
// that a retry fails the same way, and where an empty required field
// usually comes from: a value the template reads that the values do not
// have. A pre-delete hook's item gets preDeleteHookHint instead, with the
// deletions that fail on every retry (hints_deadend.go). It is empty for
// other items.
func invalidHookHint(di *lsv1alpha1.DeployItem) string {
	m := invalidHookMatch(di)
	if m == nil || m[1] == "pre-delete" {
		return ""
	}
	return hookHint(di, m) + ", then trigger the installation"
}

// preDeleteHookHint is invalidHookHint for a helm item whose uninstall
// stopped at a pre-delete hook the API server rejected (Gatekeeper 3.23's
// pre-delete ClusterRoleBinding names its subject by
// .Values.preUninstall.deleteWebhookConfigurations.name, which its values
// do not have). The item is being deleted, its values no longer change:
// the hint says how to let it go without helm's uninstall, by the root
// the user deletes (see deletionDeadEnd). It is empty for other items.
func preDeleteHookHint(di *lsv1alpha1.DeployItem, root string) string {
	m := invalidHookMatch(di)
	if m == nil || m[1] != "pre-delete" {
		return ""
	}
	return hookHint(di, m) + fmt.Sprintf(" before the release is deleted. The item is being deleted and its values no longer "+
		"change: %s delete it without helm's uninstall (the release and its objects stay on the cluster)", withoutUninstall(root))
}

// invalidHookMatch is invalidHook's match in the last or else the first
// error of di, a failed helm item; nil for other items.
func invalidHookMatch(di *lsv1alpha1.DeployItem) []string {
	if di.Spec.Type != "landscaper.gardener.cloud/helm" ||
		di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed && di.Status.Phase != lsv1alpha1.DeployItemPhases.DeleteFailed {
		return nil
	}
	m, _ := errorMatch(di, invalidHook) // hints.go
	return m
}

// hookHint is the part of the hints about an invalid hook (m, invalidHook's
// match) that names it and says what to look up.
func hookHint(di *lsv1alpha1.DeployItem, m []string) string {
	event, path, kind, name, errs := m[1], m[2], m[3], m[4], m[5]
	return fmt.Sprintf("DeployItem %s/%s: helm's %s hook %s %s (%s) is invalid as the chart renders it: %s. kube-apiserver "+
		"rejects it on a real cluster too, and helm stops at it, so every retry fails the same way. A required field that "+
		"comes out empty is mostly one the template fills from a value that the chart's values and the item's do not have: "+
		"look the field up in %s and give that value in the item's values", di.Namespace, di.Name, event, kind, name, path, errs, path)
}
