package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestTimeoutHintNamesObjectsNeverRead: a custom check that timed out
// before it could read its object (Calico's TigeraStatus calico, which
// the tigera-operator writes) gets a hint naming that object and what the
// check requires of it, so the user knows what to seed.
func TestTimeoutHintNamesObjectsNeverRead(t *testing.T) {
	di := failedItem(lsv1alpha1.DeployItemPhases.Failed, `timeout at: "deployer: during readiness check"`)
	di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"readinessChecks":{"custom":[
		{"name":"calico-available","resourceSelector":[{"apiVersion":"operator.tigera.io/v1","kind":"TigeraStatus","name":"calico"}],
		 "requirements":[{"jsonPath":".status.conditions[?(@.type == 'Available')].status","operator":"==","values":[{"value":"True"}]}]},
		{"name":"by-label","resourceSelector":[{"apiVersion":"v1","kind":"Pod","namespace":"x","labels":{"app":"a"}}]}]}}`)}
	got := timeoutHint(di, nil)
	want := `before it could read an object it checks: the object is not on the target cluster, or its kind is not served there. ` +
		`If that cluster is simulated: only the deployers and the seeds create objects there (no operator or controller does, nor installs CRDs), ` +
		`so seed the object on the deploy item's target cluster (simulatedCluster.seeds, see docs/deployers.md), with its CRD and the status the check requires; ` +
		`the custom check "calico-available" reads TigeraStatus /calico; the custom check "calico-available" requires .status.conditions[?(@.type == 'Available')].status == "True"`
	if !strings.HasSuffix(got, want) {
		t.Errorf("hint = %q\nwant it to end in %q", got, want)
	}
}
