package action

import (
	"fmt"

	"github.com/lscli/lscli/deployers/simcluster"
)

// podSecurityHint is the hint for a workload in namespace ns whose pods
// PodSecurity admission refuses (w.PodSecurity); on says what timed out on
// which workload.
func podSecurityHint(on, ns string, w simcluster.Wait) string {
	return fmt.Sprintf("%s, whose pods the API server refuses: %s. Namespace %s enforces that level "+
		"(label pod-security.kubernetes.io/enforce); the workload itself is stored, on a real cluster too, where only "+
		"its ReplicaSet's or controller's events and condition ReplicaFailure (FailedCreate) show it. Set the "+
		"securityContext the level requires in the pod template, or a lower level on the namespace",
		on, w.PodSecurity, ns)
}
