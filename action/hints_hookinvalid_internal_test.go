package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestInvalidHookHint: a helm item whose uninstall stopped at a pre-delete
// hook the API server rejected (Gatekeeper's ClusterRoleBinding without a
// subject name) is told the field, the template, that a retry fails the
// same way and how to delete it without the uninstall; an install hook's
// item is told to give the value and trigger; other items get no hint.
func TestInvalidHookHint(t *testing.T) {
	msg := "unable to delete helm chart release: warning: Hook pre-delete gatekeeper/templates/webhook-configs-pre-delete.yaml " +
		"failed: 1 error occurred:\n\t* ClusterRoleBinding.rbac.authorization.k8s.io \"gatekeeper-delete-webhook-configs\" is " +
		"invalid: subjects[0].name: Required value\n\n"
	di := failedItem(lsv1alpha1.DeployItemPhases.DeleteFailed, `timeout at: "helm deployer: start delete"`)
	di.Spec.Type = "landscaper.gardener.cloud/helm"
	di.Status.FirstError = &lsv1alpha1.Error{Message: msg}
	if got := invalidHookHint(di); got != "" {
		t.Errorf("pre-delete hook: invalidHookHint = %q, want none (deletionDeadEnd's)", got)
	}
	got := deletionDeadEnd(di, "gatekeeper")
	for _, w := range []string{"DeployItem laas/shoot: helm's pre-delete hook ClusterRoleBinding gatekeeper-delete-webhook-configs " +
		"(gatekeeper/templates/webhook-configs-pre-delete.yaml) is invalid as the chart renders it: subjects[0].name: Required value.",
		"every retry fails the same way", "'lscli delete gatekeeper --without-uninstall' and then 'lscli trigger gatekeeper'"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	install := failedItem(lsv1alpha1.DeployItemPhases.Failed, "unable to install helm chart release: warning: Hook pre-install "+
		"app/templates/rbac.yaml failed: 1 error occurred:\n\t* RoleBinding.rbac.authorization.k8s.io \"app\" is invalid: "+
		"roleRef.name: Required value")
	install.Spec.Type = "landscaper.gardener.cloud/helm"
	if got := invalidHookHint(install); !strings.Contains(got, "pre-install hook RoleBinding app (app/templates/rbac.yaml)") ||
		!strings.HasSuffix(got, ", then trigger the installation") {
		t.Errorf("install hook: hint = %q", got)
	}
	manifest := failedItem(lsv1alpha1.DeployItemPhases.Failed, install.Status.LastError.Message)
	manifest.Spec.Type = "landscaper.gardener.cloud/kubernetes-manifest"
	if got := invalidHookHint(manifest); got != "" {
		t.Errorf("manifest item: hint = %q, want none", got)
	}
	if got := invalidHookHint(failedItem(lsv1alpha1.DeployItemPhases.Failed, "timeout")); got != "" {
		t.Errorf("other failure: hint = %q, want none", got)
	}
	if got := deletionDeadEnd(di, "deployitem shoot"); !strings.Contains(got, "'lscli delete deployitem shoot --without-uninstall' and then 'lscli trigger deployitem shoot'") {
		t.Errorf("stand-alone item: hint = %q, want the commands for the deploy item", got)
	}
}
