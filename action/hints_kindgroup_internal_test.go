package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestTimeoutHintKindOfAnotherGroup: Landscaper's timeout names the kind
// only ("of type Service"); a custom check on a Knative Service, which no
// fake controller serves, gets the hint a core Service (whose status a
// fake controller writes) does not.
func TestTimeoutHintKindOfAnotherGroup(t *testing.T) {
	item := func(apiVersion string) *lsv1alpha1.DeployItem {
		di := failedItem(lsv1alpha1.DeployItemPhases.Failed, `timeout at: "deployer: during readiness check - resource default/hello of type Service"`)
		di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"readinessChecks":{"custom":[
 {"name":"ksvc-ready","resourceSelector":[{"apiVersion":"` + apiVersion + `","kind":"Service","name":"hello","namespace":"default"}],
  "requirements":[{"jsonPath":".status.conditions[?(@.type=='Ready')].status","operator":"==","values":[{"value":"True"}]}]}]}}`)}
		return di
	}
	got := timeoutHint(item("serving.knative.dev/v1"), nil)
	for _, w := range []string{"its readiness check timed out on Service.serving.knative.dev default/hello", "no controller fills in the status of a Service.serving.knative.dev there",
		`the custom check "ksvc-ready" requires .status.conditions[?(@.type=='Ready')].status == "True"`} {
		if !strings.Contains(got, w) {
			t.Errorf("knative: hint = %q, want it to contain %q", got, w)
		}
	}
	if got := timeoutHint(item("v1"), nil); got != "" {
		t.Errorf("core Service: hint = %q, want none", got)
	}
}
