package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// poolRefused is kube-apiserver's refusal of a MetalLB IPAddressPool while
// the controller serving the webhook has no ready pod, as the manifest
// deployer reports it.
const poolRefused = `[unable to create resource metallb-system/lan: Internal error occurred: failed calling webhook ` +
	`"ipaddresspoolvalidationwebhook.metallb.io": failed to call webhook: Post ` +
	`"https://metallb-webhook-service.metallb-system.svc:443/validate-metallb-io-v1beta1-ipaddresspool?timeout=10s": ` +
	`dial tcp 10.96.0.12:443: connect: connection refused]`

// TestWebhookHint: a manifest item that timed out after its last attempt
// was refused by an unreachable webhook is told so, with the webhook and
// its Service, even when its first error (a kind not served yet) would
// call for the hint about a missing CRD; an item whose last attempt failed
// otherwise, or that did not fail, gets none.
func TestWebhookHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	di := failedItem(failed, `timeout at: "manifest deployer: start reconcile"`)
	di.Status.FirstError = &lsv1alpha1.Error{Message: "unable to get api resources for metallb.io/v1beta1: the server could not find the requested resource"}
	di.Status.LastErrors = []*lsv1alpha1.Error{di.Status.FirstError, {Message: poolRefused}, di.Status.LastError}
	got := webhookHint(di)
	for _, w := range []string{`DeployItem laas/shoot: kube-apiserver refused its last attempt because it could not call admission webhook "ipaddresspoolvalidationwebhook.metallb.io"`,
		"Service metallb-system/metallb-webhook-service: no pod behind the Service is ready", "dependsOn"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}

	di.Status.LastErrors = []*lsv1alpha1.Error{{Message: poolRefused}, di.Status.FirstError, di.Status.LastError}
	if got := webhookHint(di); got != "" {
		t.Errorf("last attempt failed otherwise: hint = %q, want none", got)
	}
	di.Status.LastErrors = []*lsv1alpha1.Error{{Message: poolRefused}}
	di.Status.Phase = lsv1alpha1.DeployItemPhases.Succeeded
	if got := webhookHint(di); got != "" {
		t.Errorf("succeeded: hint = %q, want none", got)
	}
}
