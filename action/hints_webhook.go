package action

import (
	"fmt"
	"regexp"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// unreachableWebhook matches kube-apiserver's refusal of a write that an
// admission webhook with failurePolicy Fail had to see but could not be
// called (a simulated cluster refuses it alike, deployers/simcluster
// webhookcall.go): the webhook, the Service's name and namespace, and why.
var unreachableWebhook = regexp.MustCompile(`failed calling webhook "([^"]+)": failed to call webhook: Post "https://([^./"]+)\.([^./"]+)\.svc[^"]*": ` +
	unreachableService)

// unreachableService matches why kube-apiserver could not post to a
// webhook's Service (whyUnreachable tells it in words).
const unreachableService = `(dial tcp \S+: connect: connection refused|no endpoints available for service "[^"]+"|service "[^"]+" not found|` +
	`no service port \d+ found for service "[^"]+"|cannot route to service with ClusterIP "None")`

// whyUnreachable says in words what reason, matched by unreachableService,
// means.
func whyUnreachable(reason string) string {
	switch {
	case strings.HasPrefix(reason, "service "):
		return "the Service does not exist"
	case strings.HasPrefix(reason, "no service port"):
		return "the Service does not have the webhook's port"
	case strings.HasPrefix(reason, "cannot route"):
		return "the Service is headless"
	}
	return "no pod behind the Service is ready"
}

// webhookHint says, for a deploy item that failed and whose last attempt
// before its timeout was refused because an admission webhook could not be
// called, which webhook and Service, and how to let the item wait for
// it: MetalLB's IPAddressPools are refused until its controller serves the
// webhook. It is empty for other items. The item's first error may be an
// older one (the kind not served yet); the webhook's is the one that
// stands.
func webhookHint(di *lsv1alpha1.DeployItem) string {
	if di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed {
		return ""
	}
	m := lastAttemptMatch(di, unreachableWebhook)
	if m == nil {
		return ""
	}
	why := whyUnreachable(m[4])
	return fmt.Sprintf("DeployItem %s/%s: kube-apiserver refused its last attempt because it could not call admission webhook %q "+
		"(failurePolicy Fail) through Service %s/%s: %s (%s). A real cluster refuses such writes until the webhook's server runs, and "+
		"Landscaper retries them until the item's timeout. Make the item depend on the item that installs the webhook (dependsOn) and "+
		"let that one wait until its workload is ready (helm's wait, or the default readiness checks), or give this item a longer timeout",
		di.Namespace, di.Name, m[1], m[3], m[2], why, m[4])
}

// lastAttemptMatch matches re against the newest of di's errors that is
// not a timeout (the error of its last attempt), from lastErrors, else
// lastError.
func lastAttemptMatch(di *lsv1alpha1.DeployItem, re *regexp.Regexp) []string {
	errs := di.Status.LastErrors
	if len(errs) == 0 && di.Status.LastError != nil {
		errs = []*lsv1alpha1.Error{di.Status.LastError}
	}
	for i := len(errs) - 1; i >= 0; i-- {
		if errs[i] == nil || strings.HasPrefix(errs[i].Message, "timeout at:") {
			continue
		}
		return re.FindStringSubmatch(errs[i].Message)
	}
	return nil
}
