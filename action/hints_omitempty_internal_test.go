package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// checkItem is a manifest item that failed on a readiness timeout of
// DaemonSet kube-flannel/kube-flannel-ds with a custom check requiring
// path op value of it.
func checkItem(path, op, value string) *lsv1alpha1.DeployItem {
	di := failedItem(lsv1alpha1.DeployItemPhases.Failed,
		`timeout at: "deployer: during readiness check - resource kube-flannel/kube-flannel-ds of type DaemonSet"`)
	di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"readinessChecks":{"custom":[{"name":"no-unavailable-pods",` +
		`"resourceSelector":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"kube-flannel-ds","namespace":"kube-flannel"}],` +
		`"requirements":[{"jsonPath":"` + path + `","operator":"` + op + `","values":[{"value":` + value + `}]}]}]}}`)}
	return di
}

// TestOmittedZeroHint: a custom check that requires a DaemonSet's
// status.numberUnavailable == 0 never passes (the API server omits the
// zero), and the hint says so and what to require instead; a field
// without omitempty (numberReady), another value, another operator and a
// path with a filter get none.
func TestOmittedZeroHint(t *testing.T) {
	got := omittedZeroHint(checkItem(".status.numberUnavailable", "==", "0"))
	for _, w := range []string{
		`DeployItem laas/shoot: its readiness check timed out on DaemonSet kube-flannel/kube-flannel-ds: the custom check "no-unavailable-pods" requires .status.numberUnavailable == 0`,
		"leaves that field out of a DaemonSet when it is 0",
		"on a real cluster too",
		"`operator: \"!\"`",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	for name, di := range map[string]*lsv1alpha1.DeployItem{
		"no omitempty": checkItem(".status.numberReady", "==", "0"),
		"not zero":     checkItem(".status.numberUnavailable", "==", "1"),
		"not equals":   checkItem(".status.numberUnavailable", "!=", "0"),
		"filter":       checkItem(".status.conditions[?(@.type=='X')].status", "==", `""`),
	} {
		if got := omittedZeroHint(di); got != "" {
			t.Errorf("%s: hint = %q, want none", name, got)
		}
	}
}

// TestOmittedWhenZero reads omitempty from k8s.io/api's types.
func TestOmittedWhenZero(t *testing.T) {
	deploy := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	for path, want := range map[string]bool{
		".status.unavailableReplicas": true,
		"status.readyReplicas":        true,
		".metadata.generation":        true,
		".spec.template":              false,
		".status.nothing":             false,
	} {
		if got := omittedWhenZero(deploy, path); got != want {
			t.Errorf("%s: omittedWhenZero = %v, want %v", path, got, want)
		}
	}
	if omittedWhenZero(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Thing"}, ".status.x") {
		t.Error("custom kind: want false")
	}
}
