package action

import (
	"fmt"
	"regexp"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// unconvertible matches kube-apiserver's errors for a custom resource it
// must convert between the version a client names and its CRD's storage
// version by the CRD's conversion webhook, which it could not call (a
// simulated cluster fails alike, deployers/simcluster
// conversionwebhook.go): the group version and kind converted from, the
// Service's name and namespace, and why.
var unconvertible = regexp.MustCompile(`conversion webhook for (\S+), Kind=(\S+) failed: Post "https://([^./"]+)\.([^./"]+)\.svc[^"]*": ` +
	unreachableService)

// conversionHint says, for a deploy item that failed and whose last attempt
// before its timeout was refused because kube-apiserver could not call a
// CRD's conversion webhook, which kind and Service, and how to let the
// item wait for it: an operator's chart or manifest that writes a custom
// resource in an older version (Tekton's v1beta1 Tasks, cert-manager's
// v1alpha2 Certificates) in the same item as the operator's Deployment,
// whose pod serves the webhook, is refused until that pod is ready. It is
// empty for other items.
func conversionHint(di *lsv1alpha1.DeployItem) string {
	if di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed {
		return ""
	}
	m := lastAttemptMatch(di, unconvertible)
	if m == nil {
		return ""
	}
	// A port the Service lacks is a mistake of the CRD (or the Service),
	// which no waiting mends (Prometheus Operator's patch.json names 8443,
	// the targetPort of its Service's port 443).
	if strings.HasPrefix(m[5], "no service port") {
		return fmt.Sprintf("DeployItem %s/%s: kube-apiserver refused its last attempt because it could not convert a %s of %s "+
			"to or from its CRD's storage version: the CRD's conversion webhook is served through Service %s/%s, and %s (%s), "+
			"on a real cluster too, however long the item waits: the CRD's spec.conversion.webhook.clientConfig.service.port "+
			"must be one of the Service's spec.ports[].port (not a targetPort); 443 when the CRD names none",
			di.Namespace, di.Name, m[2], m[1], m[4], m[3], whyUnreachable(m[5]), m[5])
	}
	return fmt.Sprintf("DeployItem %s/%s: kube-apiserver refused its last attempt because it could not convert a %s of %s "+
		"to or from its CRD's storage version: the CRD's conversion webhook is served through Service %s/%s, and %s (%s). "+
		"A real cluster refuses every write and read of that kind in a version other than the storage version until the webhook's "+
		"server runs, and Landscaper retries them until the item's timeout. Write the custom resource in the CRD's storage version, "+
		"or move it to an item that depends on the item installing the webhook's workload (dependsOn), which waits until it is "+
		"ready; a failed item runs again with a new job (lscli trigger, or spec.automaticReconcile.failedReconcile of its root)",
		di.Namespace, di.Name, m[2], m[1], m[4], m[3], whyUnreachable(m[5]), m[5])
}
