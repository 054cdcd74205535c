package simcluster

import (
	"context"
	"strings"
	"testing"

	"github.com/lscli/lscli/internal/testcluster"
)

// pdbCases are PodDisruptionBudgets charts render: NATS's with a
// merge that adds minAvailable to the chart's maxUnavailable, one with
// neither, negative and out-of-range values, a bad percentage, and an
// empty selector.
var pdbCases = []struct{ name, spec string }{
	{"both set", "maxUnavailable: 1\n  minAvailable: 2\n  selector: {matchLabels: {app: nats}}"},
	{"max only", "maxUnavailable: 1\n  selector: {matchLabels: {app: nats}}"},
	{"neither", "selector: {matchLabels: {app: nats}}"},
	{"negative", "minAvailable: -1\n  selector: {matchLabels: {app: nats}}"},
	{"percent over 100", "maxUnavailable: 150%\n  selector: {matchLabels: {app: nats}}"},
	{"bad percent", "minAvailable: 50 %\n  selector: {matchLabels: {app: nats}}"},
	{"bad string", "minAvailable: half\n  selector: {matchLabels: {app: nats}}"},
	{"policy", "minAvailable: 1\n  unhealthyPodEvictionPolicy: Sometimes\n  selector: {matchLabels: {app: nats}}"},
	{"bad selector", "minAvailable: 1\n  selector: {matchLabels: {'a b': nats}}"},
}

func pdbManifest(name, spec string) string {
	return "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: " + name + "\n  namespace: default\nspec:\n  " + spec + "\n"
}

// TestRealClusterPDBValidation creates the PodDisruptionBudgets of
// pdbCases on a real kube-apiserver and on a simulated cluster and
// compares the answers.
func TestRealClusterPDBValidation(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	for i, c := range pdbCases {
		m := pdbManifest("pdb-"+string(rune('a'+i)), c.spec)
		sim := outcome(f.c.Create(ctx, obj(t, m)))
		real := outcome(tc.Client.Create(ctx, obj(t, strings.Replace(m, "namespace: default", "namespace: "+ns, 1))))
		if sim != real {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s", c.name, sim, real)
		} else {
			t.Logf("%s: %s", c.name, real)
		}
	}
}
