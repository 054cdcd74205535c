package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestEndpointsHint: a readiness check that reads EndpointSlices by labels,
// or Endpoints by name, and timed out is told that kube-controller-manager
// writes them, which a simulated cluster does not; other checks, a check
// through another Target and a succeeded item get no hint.
func TestEndpointsHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	item := func(msg, cfg string) *lsv1alpha1.DeployItem {
		di := failedItem(failed, msg)
		di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(cfg)}
		return di
	}
	const anyObject = `timeout at: "deployer: during readiness check"`
	const slices = `{"readinessChecks":{"custom":[{"name":"svc","labelSelector":{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice",` +
		`"matchLabels":{"kubernetes.io/service-name":"web"}},"requirements":[{"jsonPath":".endpoints[0].conditions.ready","operator":"==","values":[{"value":true}]}]}]}}`
	for _, tc := range []struct {
		name, msg, cfg string
		wants          []string
	}{
		{"slices by labels", anyObject, slices, []string{`DeployItem laas/shoot: its readiness check timed out; the custom check "svc" reads EndpointSlice objects with labels kubernetes.io/service-name=web, which the EndpointSlice controller of kube-controller-manager writes`,
			"writes no Endpoints or EndpointSlices", "Check the workload behind the Service instead"}},
		{"endpoints by name", `timeout at: "deployer: during readiness check - resource default/web of type Endpoints"`,
			`{"readinessChecks":{"custom":[{"name":"ep","resourceSelector":[{"apiVersion":"v1","kind":"Endpoints","name":"web","namespace":"default"}]}]}}`,
			[]string{`the custom check "ep" reads Endpoints default/web, which the Endpoints controller of kube-controller-manager writes`}},
		{"another kind", anyObject, strings.ReplaceAll(slices, "EndpointSlice", "Widget"), nil},
		{"another target", anyObject, strings.Replace(slices, `"name":"svc",`, `"name":"svc","targetName":"other",`, 1), nil},
		{"export timeout", `timeout at: "deployer: during export - key: ip"`, slices, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := endpointsHint(item(tc.msg, tc.cfg))
			if tc.wants == nil && got != "" {
				t.Fatalf("hint = %q, want none", got)
			}
			for _, w := range tc.wants {
				if !strings.Contains(got, w) {
					t.Errorf("hint = %q, want it to contain %q", got, w)
				}
			}
		})
	}
	ok := item(anyObject, slices)
	ok.Status.Phase = lsv1alpha1.DeployItemPhases.Succeeded
	if got := endpointsHint(ok); got != "" {
		t.Errorf("succeeded item: hint = %q, want none", got)
	}
}
