package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestClaimTemplatesHint: a helm item whose upgrade changed a
// StatefulSet's volumeClaimTemplates (Loki's singleBinary.persistence.size)
// is told that they cannot change and how a user grows the volumes: each
// claim, then the StatefulSet deleted with its pods orphaned, then a
// trigger; the manifest deployer's refusal names the StatefulSet by its
// key; other items get no hint.
func TestClaimTemplatesHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, "Op: UpgradeHelmRelease - Reason: Update - Message: unable to upgrade helm chart release: "+
		`cannot patch "loki" with kind StatefulSet: StatefulSet.apps "loki" is invalid: spec.volumeClaimTemplates: Invalid value: `+
		`[{"name":"storage","Spec":{}}]: field is immutable`)
	di.Spec.Configuration = helmItem("x", "loki", "loki").Spec.Configuration
	got := claimTemplatesHint(di)
	for _, w := range []string{
		"DeployItem laas/shoot: the volumeClaimTemplates of StatefulSet loki/loki cannot change",
		"on a real cluster too",
		"--cascade=orphan",
		"trigger the installation",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	manifest := failedItem(failed, `unable to update resource db/pg: StatefulSet.apps "pg" is invalid: spec.volumeClaimTemplates: `+
		`Invalid value: []: field is immutable`)
	if got := claimTemplatesHint(manifest); !strings.Contains(got, "StatefulSet db/pg cannot change") {
		t.Errorf("manifest: hint = %q, want StatefulSet db/pg", got)
	}
	if got := claimTemplatesHint(failedItem(failed, `StatefulSet.apps "pg" is invalid: spec.selector: Invalid value: {}: field is immutable`)); got != "" {
		t.Errorf("selector: hint = %q, want none", got)
	}
	if got := claimTemplatesHint(failedItem(lsv1alpha1.DeployItemPhases.Succeeded, manifest.Status.LastError.Message)); got != "" {
		t.Errorf("succeeded: hint = %q, want none", got)
	}
}
