package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestPolicyHint: an item whose last attempt a ValidatingAdmissionPolicy
// denied gets a hint naming the policy, its binding and message, and how
// to show the policy; a timeout after it does not hide it, and other
// errors get none.
func TestPolicyHint(t *testing.T) {
	const denied = `unable to create resource istio-system/f: envoyfilters.networking.istio.io "f" is forbidden: ValidatingAdmissionPolicy ` +
		`'stable-channel-default-policy.istio.io' with binding 'stable-channel-default-policy-binding.istio.io' denied request: failed expression: !variables.isEnvoyFilter`
	item := func(msgs ...string) *lsv1alpha1.DeployItem {
		di := failedItem(lsv1alpha1.DeployItemPhases.Failed, msgs[len(msgs)-1])
		di.Spec.Target = &lsv1alpha1.ObjectReference{Name: "cluster"}
		for _, m := range msgs {
			di.Status.LastErrors = append(di.Status.LastErrors, &lsv1alpha1.Error{Message: m})
		}
		return di
	}
	got := policyHint(item(denied, `timeout at: "manifest deployer: start reconcile"`))
	for _, w := range []string{
		`DeployItem laas/shoot: kube-apiserver's ValidatingAdmissionPolicy "stable-channel-default-policy.istio.io" (binding "stable-channel-default-policy-binding.istio.io") denied its last attempt: failed expression: !variables.isEnvoyFilter.`,
		"a real cluster denies the write the same way",
		"`lscli get --target laas/cluster validatingadmissionpolicy stable-channel-default-policy.istio.io -o yaml`",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	// The manifest deployer's aggregate of two denied CRDs (Gateway API's
	// safe-upgrades policy): the hint quotes the first denial's message.
	const msg = "Installing experimental CRDs on top of standard channel CRDs is prohibited by default."
	deny := func(crd string) string {
		return `unable to update resource /` + crd + `: customresourcedefinitions.apiextensions.k8s.io "` + crd + `" is forbidden: ` +
			`ValidatingAdmissionPolicy 'safe-upgrades.gateway.networking.k8s.io' with binding 'safe-upgrades.gateway.networking.k8s.io' denied request: ` + msg
	}
	got = policyHint(item("[" + deny("gateways.gateway.networking.k8s.io") + ", " + deny("httproutes.gateway.networking.k8s.io") + "]"))
	if w := `denied its last attempt: ` + msg + ` The API server`; !strings.Contains(got, w) {
		t.Errorf("hint = %q, want it to contain %q", got, w)
	}
	if got := policyHint(item(`unable to create resource x: forbidden`)); got != "" {
		t.Errorf("hint = %q, want none", got)
	}
}
