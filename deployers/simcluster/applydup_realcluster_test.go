package simcluster

import (
	"context"
	"strings"
	"testing"

	"github.com/lscli/lscli/internal/testcluster"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// dupPortsStatefulSet is a StatefulSet whose container has two ports with
// one number and protocol (Vector's chart with a vector source and a
// vector sink on one port), or, with one, a single port.
func dupPortsStatefulSet(name string, dup bool) string {
	ports := "- {name: vector, containerPort: 6000, protocol: TCP}"
	if dup {
		ports = "- {name: storage, containerPort: 9000, protocol: TCP}\n        - {name: vector, containerPort: 9000, protocol: TCP}"
	}
	return "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: " + name + ", namespace: default}\nspec:\n  serviceName: x\n" +
		"  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec:\n      containers:\n" +
		"      - name: c\n        image: i\n        ports:\n        " + ports + "\n"
}

// applyOutcomes creates a StatefulSet with duplicate container ports, and
// applies (client.Apply) one with a single port and then the duplicates
// over it, on c in namespace ns.
func applyOutcomes(t *testing.T, c client.Client, ns string) []string {
	ctx := context.Background()
	inNS := func(m string) string { return strings.Replace(m, "namespace: default", "namespace: "+ns, 1) }
	apply := func(m string) string {
		return outcome(c.Apply(ctx, client.ApplyConfigurationFromUnstructured(obj(t, inNS(m))), client.FieldOwner("helm"), client.ForceOwnership))
	}
	return []string{
		strings.ReplaceAll(outcome(c.Create(ctx, obj(t, inNS(dupPortsStatefulSet("created", true))))), ns, "NS"),
		strings.ReplaceAll(apply(dupPortsStatefulSet("applied", false)), ns, "NS"),
		strings.ReplaceAll(apply(dupPortsStatefulSet("applied", true)), ns, "NS"),
	}
}

// TestRealClusterApplyDuplicateKeys compares applyOutcomes on a real
// kube-apiserver and on a simulated cluster: a create keeps duplicate
// list-map keys, a server-side apply cannot make its typed patch.
func TestRealClusterApplyDuplicateKeys(t *testing.T) {
	tc := testcluster.Get(t)
	ns := tc.Namespace(t)
	real := applyOutcomes(t, tc.Client, ns)
	sim := applyOutcomes(t, newFixture(t).c, "default")
	for i := range real {
		if sim[i] != real[i] {
			t.Errorf("step %d:\nsimulated: %s\nreal:      %s", i, sim[i], real[i])
		}
	}
}
