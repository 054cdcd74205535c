package action

import (
	"strings"
	"testing"

	"github.com/lscli/lscli/deployers/simcluster"
)

// TestPodSecurityHintByKind: where a refusal shows on a real cluster
// depends on the workload's controller (only the ReplicaSet controller
// sets the condition ReplicaFailure, which a Deployment copies), and the
// way out on what the pods violate (a securityContext meets restricted;
// hostPath volumes, host namespaces, host ports and privileged containers
// need a namespace that allows them).
func TestPodSecurityHintByKind(t *testing.T) {
	restricted := `violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)`
	host := `violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostPath volumes (volumes "dev", "proc"), privileged (container "falco" must not set securityContext.privileged=true)`
	tests := []struct {
		kind, reason string
		want, not    []string
	}{
		{"Deployment", restricted,
			[]string{"its ReplicaSet's FailedCreate events and the Deployment's condition ReplicaFailure (FailedCreate)", "Set the securityContext"},
			[]string{"privileged on the namespace"}},
		{"ReplicaSet", restricted, []string{"its FailedCreate events and its condition ReplicaFailure (FailedCreate)"}, nil},
		{"DaemonSet", host,
			[]string{"only its FailedCreate events show it", "hostPath volumes, host namespaces", "level privileged on the namespace"},
			[]string{"ReplicaFailure", "Set the securityContext"}},
		{"StatefulSet", restricted, []string{"only its FailedCreate events show it"}, []string{"ReplicaFailure"}},
		{"Job", host, []string{"only its FailedCreate events show it"}, []string{"ReplicaFailure"}},
	}
	for _, tt := range tests {
		got := podSecurityHint("DeployItem ns/x: its readiness check timed out on "+tt.kind+" ns/w", tt.kind, "ns", simcluster.Wait{PodSecurity: tt.reason})
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: hint lacks %q:\n%s", tt.kind, w, got)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: hint has %q:\n%s", tt.kind, n, got)
			}
		}
	}
}
