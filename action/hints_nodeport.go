package action

import (
	"fmt"
	"regexp"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// nodePortOutOfRange matches kube-apiserver's refusal of a Service's node
// port outside its node port range (the allocator's ErrNotInRange; the
// simulated cluster's nodeportrange.go): the manifest applier's "resource
// NS/NAME:" when it precedes it, the Service's name, the port and the
// range.
var nodePortOutOfRange = regexp.MustCompile(`(?:resource (\S+): )?Service "([^"]+)" is invalid: ` +
	`spec\.ports\[\d+\]\.nodePort: Invalid value: (\d+): provided port is not in the valid range\. ` +
	`The range of valid ports is (\d+-\d+)`)

// nodePortRangeHint says, for a deploy item that failed because a Service
// asked for a node port outside the cluster's range (Harbor's chart with
// expose.nodePort.ports.http.nodePort 80, the port users mean to reach),
// what the range is and the ways out. A helm item's Service is taken to be
// in the release's namespace. It is empty for other items.
func nodePortRangeHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, nodePortOutOfRange)
	if m == nil {
		return ""
	}
	key := refusedObjectKey(di, m[1], m[2]) // hints_otherrelease.go
	return fmt.Sprintf("DeployItem %s/%s: Service %s asks for node port %s, outside the cluster's node port range %s "+
		"(kube-apiserver's --service-node-port-range): the API server refuses it, on a real cluster too, and every "+
		"retry fails the same way. Give a node port in the range, or none and let the cluster pick one; to serve "+
		"port %s itself, use a LoadBalancer Service or an Ingress", di.Namespace, di.Name, key, m[3], m[4], m[3])
}
