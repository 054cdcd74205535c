package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestNodePortRangeHint: a helm item whose install was refused a node
// port outside the range (Harbor's expose.nodePort 80) is told the range
// and the ways out; the manifest deployer's refusal names the Service by
// its key; a node port held by another Service and a succeeded item get
// no hint.
func TestNodePortRangeHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, "Op: InstallHelmRelease - Reason: Install - Message: unable to install helm chart release: 1 error occurred:\n"+
		`    * Service "harbor" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. `+
		`The range of valid ports is 30000-32767`)
	di.Spec.Configuration = helmItem("x", "harbor", "harbor").Spec.Configuration
	got := nodePortRangeHint(di)
	for _, w := range []string{
		"DeployItem laas/shoot: Service harbor/harbor asks for node port 80, outside the cluster's node port range 30000-32767",
		"on a real cluster too",
		"to serve port 80 itself, use a LoadBalancer Service or an Ingress",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	manifest := failedItem(failed, `unable to create resource web/front: Service "front" is invalid: spec.ports[1].nodePort: `+
		`Invalid value: 443: provided port is not in the valid range. The range of valid ports is 30000-32767`)
	if got := nodePortRangeHint(manifest); !strings.Contains(got, "Service web/front asks for node port 443") {
		t.Errorf("manifest: hint = %q, want Service web/front", got)
	}
	if got := nodePortRangeHint(failedItem(failed, `Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated`)); got != "" {
		t.Errorf("allocated: hint = %q, want none", got)
	}
	if got := nodePortRangeHint(failedItem(lsv1alpha1.DeployItemPhases.Succeeded, manifest.Status.LastError.Message)); got != "" {
		t.Errorf("succeeded: hint = %q, want none", got)
	}
}
