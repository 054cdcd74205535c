package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestAtomicHint: a helm item whose atomic install (upgrade) timed out in
// helm's wait is told that the release's objects are gone, which object
// helm's log last found not ready when the log still names it, and to use
// wait instead of atomic to look at them.
func TestAtomicHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, helmTimeout)
	di.Status.FirstError = &lsv1alpha1.Error{Message: "\nbeginning wait for 1 resources with timeout of 10m0s\n" +
		"Deployment is not ready: app/server. 0 out of 2 expected pods are ready\n" +
		"Starting delete for \"server\" Deployment\npurge requested for server\n" +
		"Op: InstallHelmRelease - Reason: Install - Message: unable to install helm chart release: release server failed, " +
		"and has been uninstalled due to atomic being set: context deadline exceeded"}
	got := atomicHint(di)
	for _, w := range []string{"DeployItem laas/shoot: helm's wait (atomic implies it) timed out on Deployment app/server",
		"atomic then uninstalled the release", "install.wait"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}

	crowded := failedItem(failed, helmTimeout)
	crowded.Status.FirstError = &lsv1alpha1.Error{Message: "\nStarting delete for \"a\" Service\n" +
		"Op: InstallHelmRelease - Reason: Install - Message: unable to upgrade helm chart release: release server failed, " +
		"and has been rolled back due to atomic being set: context deadline exceeded"}
	got = atomicHint(crowded)
	for _, w := range []string{"helm's wait (atomic implies it) timed out and atomic then rolled the release back",
		"upgrade.wait"} {
		if !strings.Contains(got, w) {
			t.Errorf("rolled back: hint = %q, want it to contain %q", got, w)
		}
	}

	for name, di := range map[string]*lsv1alpha1.DeployItem{
		"not failed": failedItem(lsv1alpha1.DeployItemPhases.Progressing,
			"release server failed, and has been uninstalled due to atomic being set: context deadline exceeded"),
		"hook failed": failedItem(failed,
			"release server failed, and has been uninstalled due to atomic being set: failed pre-install: job x failed"),
		"other error": failedItem(failed, `configmaps "x" not found`),
	} {
		if h := atomicHint(di); h != "" {
			t.Errorf("%s: hint = %q, want none", name, h)
		}
	}
}
