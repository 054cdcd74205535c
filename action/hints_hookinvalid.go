package action

import (
	"fmt"
	"regexp"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/dataflow"
)

// invalidHook matches helm's error for a hook object kube-apiserver
// rejected as invalid (helm's execHook: "warning: Hook EVENT PATH failed:"
// and the API server's Invalid error, "KIND[.GROUP] "NAME" is invalid:
// FIELD ERRORS"): the event, the template, the kind, the name, the errors.
var invalidHook = regexp.MustCompile(`Hook (\S+) (\S+) failed: \d+ errors? occurred:\s*\* (\w+)(?:\.\S+)? "([^"]+)" is invalid: ([^\n]+)`)

// invalidHookHint says, for a helm item whose install, upgrade or deletion
// failed because kube-apiserver rejected one of the chart's hook objects as
// rendered, that the chart renders it so (a real cluster rejects it too),
// that a retry fails the same way, and where an empty required field
// usually comes from: a value the template reads that the values do not
// have (Gatekeeper 3.23's pre-delete ClusterRoleBinding names its subject
// by .Values.preUninstall.deleteWebhookConfigurations.name). A pre-delete
// hook's item is being deleted, its values no longer change: the hint says
// how to let it go without helm's uninstall. inst is the item's
// installation (nil for a stand-alone item). It is empty for other items.
func invalidHookHint(inst *lsv1alpha1.Installation, di *lsv1alpha1.DeployItem) string {
	if di.Spec.Type != "landscaper.gardener.cloud/helm" {
		return ""
	}
	var m []string
	if di.Status.Phase == lsv1alpha1.DeployItemPhases.Failed || di.Status.Phase == lsv1alpha1.DeployItemPhases.DeleteFailed {
		for _, e := range []*lsv1alpha1.Error{di.Status.LastError, di.Status.FirstError} {
			if e != nil {
				if m = invalidHook.FindStringSubmatch(e.Message); m != nil {
					break
				}
			}
		}
	}
	if m == nil {
		return ""
	}
	event, path, kind, name, errs := m[1], m[2], m[3], m[4], m[5]
	hint := fmt.Sprintf("DeployItem %s/%s: helm's %s hook %s %s (%s) is invalid as the chart renders it: %s. kube-apiserver "+
		"rejects it on a real cluster too, and helm stops at it, so every retry fails the same way. A required field that "+
		"comes out empty is mostly one the template fills from a value that the chart's values and the item's do not have: "+
		"look the field up in %s and give that value in the item's values", di.Namespace, di.Name, event, kind, name, path, errs, path)
	if event != "pre-delete" {
		return hint + ", then trigger the installation"
	}
	root := "its root installation"
	if inst != nil && dataflow.IsRoot(inst) {
		root = inst.Name
	}
	return hint + fmt.Sprintf(" before the release is deleted. Its installation is being deleted and its values no longer "+
		"change: 'lscli delete %s --without-uninstall' and then 'lscli trigger %s' delete the item without helm's "+
		"uninstall (the release and its objects stay on the cluster)", root, root)
}
