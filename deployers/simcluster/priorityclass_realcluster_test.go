package simcluster

import (
	"context"
	"strings"
	"testing"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterPriorityClass creates Pods that name a PriorityClass
// that does not exist, a system class outside kube-system, and the class
// once it exists, on a real kube-apiserver and on a simulated cluster, and
// compares the answers.
func TestRealClusterPriorityClass(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	class := strings.Replace(workflowControllerClass, "workflow-controller", "workflow-controller-"+ns, 1)
	for _, c := range []struct{ name, pod, before string }{
		{"missing class", workload("Pod", priorityPod), ""},
		{"system class", strings.Replace(workload("Pod", "\n      priorityClassName: system-node-critical\n      containers: [{name: c, image: busybox}]"), "name: w", "name: sys", 1), ""},
		{"class created", strings.Replace(workload("Pod", priorityPod), "name: w", "name: later", 1), class},
	} {
		pod := strings.Replace(c.pod, "workflow-controller", "workflow-controller-"+ns, 1)
		if c.before != "" {
			f.create(c.before)
			if err := tc.Client.Create(ctx, obj(t, c.before)); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = tc.Client.Delete(ctx, obj(t, c.before)) })
		}
		sim := outcome(f.c.Create(ctx, obj(t, pod)))
		real := strings.ReplaceAll(outcome(tc.Client.Create(ctx, obj(t, strings.Replace(pod, "namespace: default", "namespace: "+ns, 1)))), ns, "NS")
		sim = strings.ReplaceAll(sim, ns, "NS")
		if sim != real {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s", c.name, sim, real)
		} else {
			t.Logf("%s: %s", c.name, real)
		}
	}
}
