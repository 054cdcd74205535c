package action

import (
	"fmt"
	"strings"

	"github.com/lscli/lscli/deployers/simcluster"
)

// hostViolations are the checks of Pod Security's baseline level that a
// securityContext cannot meet: the pods need the host (pod-security-
// admission's policy names for them in a refusal).
var hostViolations = []string{"host namespaces", "hostPath volumes", "hostPort", "privileged ("}

// podSecurityHint is the hint for a workload of kind in namespace ns whose
// pods PodSecurity admission refuses (w.PodSecurity); on says what timed
// out on which workload. Where a real cluster shows the refusal depends
// on the controller: the ReplicaSet controller sets the condition
// ReplicaFailure (a Deployment copies its ReplicaSet's), the others only
// record FailedCreate events. The way out depends on what the pods
// violate.
func podSecurityHint(on, kind, ns string, w simcluster.Wait) string {
	shows := "only its FailedCreate events show it (kubectl describe)"
	switch kind {
	case "Deployment":
		shows = "only its ReplicaSet's FailedCreate events and the Deployment's condition ReplicaFailure (FailedCreate) show it"
	case "ReplicaSet":
		shows = "only its FailedCreate events and its condition ReplicaFailure (FailedCreate) show it"
	}
	out := "Set the securityContext the level requires in the pod template, or a lower level on the namespace"
	for _, v := range hostViolations {
		if strings.Contains(w.PodSecurity, v) {
			out = "The pods use the host (hostPath volumes, host namespaces, host ports or privileged containers), which no " +
				"securityContext makes meet baseline: set level privileged on the namespace, as such agents' install guides do, " +
				"or leave those out of the pod template"
			break
		}
	}
	return fmt.Sprintf("%s, whose pods the API server refuses: %s. Namespace %s enforces that level "+
		"(label pod-security.kubernetes.io/enforce); the workload itself is stored, on a real cluster too, where %s. %s",
		on, w.PodSecurity, ns, shows, out)
}
