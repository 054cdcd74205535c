package action

import (
	"fmt"
	"regexp"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// policyDenied matches kube-apiserver's refusal of a write that a
// ValidatingAdmissionPolicy denied (a simulated cluster refuses it alike,
// deployers/simcluster admissionpolicy.go): the policy, its binding and
// the policy's message. In the manifest deployer's aggregate of the errors
// of several objects ("[unable to update resource A: ..., unable to update
// resource B: ...]") the message ends where the next object's error
// begins, or before the closing bracket.
var policyDenied = regexp.MustCompile(`ValidatingAdmissionPolicy '([^']+)' with binding '([^']+)' denied request: (.*?)(?:, unable to [a-z]+ resource |\]?$)`)

// policyHint says, for a deploy item that failed and whose last attempt
// was denied by a ValidatingAdmissionPolicy, which policy and why, that a
// real cluster denies it the same way (kube-apiserver evaluates the
// policy itself; nothing is unreachable or missing), and how to look at
// the policy: istio's stable-channel policies deny EnvoyFilters. It is
// empty for other items.
func policyHint(di *lsv1alpha1.DeployItem) string {
	if di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed {
		return ""
	}
	m := lastAttemptMatch(di, policyDenied) // hints_webhook.go
	if m == nil {
		return ""
	}
	target := "TARGET"
	if di.Spec.Target != nil {
		target = di.Namespace + "/" + di.Spec.Target.Name
	}
	return fmt.Sprintf("DeployItem %s/%s: kube-apiserver's ValidatingAdmissionPolicy %q (binding %q) denied its last attempt: %s. "+
		"The API server evaluates the policy itself, so a real cluster denies the write the same way, and Landscaper retries it "+
		"until the item's timeout. Change the object so that the policy's validations hold, or remove the policy or its binding "+
		"(whatever installed it: a chart value; `lscli get --target %s validatingadmissionpolicy %s -o yaml` shows it)",
		di.Namespace, di.Name, m[1], m[2], strings.TrimSuffix(m[3], "."), target, m[1])
}
