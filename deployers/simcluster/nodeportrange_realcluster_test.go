package simcluster

import (
	"testing"
)

// nodePortRangeCases are Services that name node ports inside and outside
// kube-apiserver's default range, as Harbor's chart writes them from
// expose.nodePort.ports (a user's 80 and 443 for the registry's URL).
var nodePortRangeCases = []struct{ name, manifest string }{
	{"nodeport 80", "apiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: default}\nspec:\n  type: NodePort\n  ports:\n  - {name: http, port: 80, nodePort: 80}\n  selector: {app: x}\n"},
	{"second port out of range", "apiVersion: v1\nkind: Service\nmetadata: {name: b, namespace: default}\nspec:\n  type: NodePort\n  ports:\n  - {name: http, port: 80, nodePort: 30102}\n  - {name: https, port: 443, nodePort: 32768}\n  selector: {app: x}\n"},
	{"load balancer", "apiVersion: v1\nkind: Service\nmetadata: {name: c, namespace: default}\nspec:\n  type: LoadBalancer\n  ports:\n  - {name: http, port: 80, nodePort: 29999}\n  selector: {app: x}\n"},
	{"in range", "apiVersion: v1\nkind: Service\nmetadata: {name: d, namespace: default}\nspec:\n  type: NodePort\n  ports:\n  - {name: http, port: 80, nodePort: 32767}\n  selector: {app: x}\n"},
}

// TestRealClusterNodePortRange creates the Services of nodePortRangeCases
// on a real kube-apiserver and on a simulated cluster and compares the
// answers.
func TestRealClusterNodePortRange(t *testing.T) {
	compareCreates(t, nodePortRangeCases)
}
