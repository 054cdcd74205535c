package simcluster

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterHPAVersions writes each of hpaVersionCases on a real
// kube-apiserver and on a simulated cluster in the version it names,
// reads it back in autoscaling/v1 and autoscaling/v2, updates it in the
// other version (a label added to what that version reads) and reads it
// again, and compares what each cluster answers: apiVersion, generation,
// annotations, spec, status and the managedFields entries (their
// apiVersion, operation and fields; not the manager, time, uid or
// resourceVersion).
func TestRealClusterHPAVersions(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	for _, c := range hpaVersionCases {
		t.Run(c.name, func(t *testing.T) {
			write := obj(t, c.manifest)
			sim, real := write.DeepCopy(), write.DeepCopy()
			sim.SetNamespace("default")
			real.SetNamespace(ns)
			if err := f.c.Create(ctx, sim); err != nil {
				t.Fatalf("simulated create: %v", err)
			}
			if err := tc.Client.Create(ctx, real); err != nil {
				t.Fatalf("real create: %v", err)
			}
			compare := func(step string) {
				t.Helper()
				for _, v := range []string{"v1", "v2"} {
					s := hpaAnswer(t, f.c, "default", write.GetName(), v)
					r := hpaAnswer(t, tc.Client, ns, write.GetName(), v)
					if s != r {
						t.Errorf("%s, read in %s\nsimulated: %s\nreal:      %s", step, v, s, r)
					}
				}
			}
			compare("created in " + write.GetAPIVersion())
			other := "v1"
			if write.GetAPIVersion() == "autoscaling/v1" {
				other = "v2"
			}
			for _, cl := range []struct {
				c  client.Client
				ns string
			}{{f.c, "default"}, {tc.Client, ns}} {
				u := hpaIn(other)
				if err := cl.c.Get(ctx, client.ObjectKey{Namespace: cl.ns, Name: write.GetName()}, u); err != nil {
					t.Fatal(err)
				}
				u.SetLabels(map[string]string{"updated-in": other})
				u.SetManagedFields(nil)
				if err := cl.c.Update(ctx, u); err != nil {
					t.Fatalf("update in %s: %v", other, err)
				}
			}
			compare("updated in " + other)
		})
	}
}

// hpaIn is an empty HorizontalPodAutoscaler of autoscaling/version to read
// into.
func hpaIn(version string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("autoscaling/" + version)
	u.SetKind("HorizontalPodAutoscaler")
	return u
}

// hpaAnswer renders what c answers for the HPA ns/name read in version:
// apiVersion, generation, annotations, spec, status and the managedFields
// entries without manager and time.
func hpaAnswer(t *testing.T, c client.Client, ns, name, version string) string {
	t.Helper()
	u := hpaIn(version)
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, u); err != nil {
		t.Fatalf("get in %s: %v", version, err)
	}
	var fields []string
	for _, e := range u.GetManagedFields() {
		fields = append(fields, e.APIVersion+" "+string(e.Operation)+" "+string(e.FieldsV1.Raw))
	}
	// kube-apiserver sorts entries by time, then by apiVersion: the real
	// cluster wrote both entries in one second.
	sort.Strings(fields)
	b, err := json.Marshal(map[string]any{"apiVersion": u.GetAPIVersion(), "generation": u.GetGeneration(),
		"annotations": u.GetAnnotations(), "spec": u.Object["spec"], "status": u.Object["status"],
		"managedFields": fields})
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), ns, "default")
}

// TestRealClusterHPAApplyAndStatus applies an HPA in autoscaling/v2 on a
// real kube-apiserver and on a simulated cluster, applies it again in
// autoscaling/v1 by another manager (without and with force), writes its
// status in v2 (current metrics, conditions) and compares the outcome of
// each step and what each cluster answers in both versions.
func TestRealClusterHPAApplyAndStatus(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	clusters := []struct {
		c  client.Client
		ns string
	}{{f.c, "default"}, {tc.Client, ns}}
	compare := func(step string, outcomes [2]string) {
		t.Helper()
		if outcomes[0] != outcomes[1] {
			t.Errorf("%s\nsimulated: %s\nreal:      %s", step, outcomes[0], outcomes[1])
		}
		for _, v := range []string{"v1", "v2"} {
			s, r := hpaAnswer(t, f.c, "default", "applied", v), hpaAnswer(t, tc.Client, ns, "applied", v)
			if s != r {
				t.Errorf("%s, read in %s\nsimulated: %s\nreal:      %s", step, v, s, r)
			}
		}
	}
	apply := func(manifest, manager string, force bool) [2]string {
		var out [2]string
		for i, cl := range clusters {
			u := obj(t, manifest)
			u.SetNamespace(cl.ns)
			opts := []client.PatchOption{client.FieldOwner(manager)}
			if force {
				opts = append(opts, client.ForceOwnership)
			}
			out[i] = strings.ReplaceAll(outcome(cl.c.Patch(ctx, u, client.Apply, opts...)), cl.ns, "default")
		}
		return out
	}
	compare("applied in v2", apply(hpaApplied("autoscaling/v2", `
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
  - type: Pods
    pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: "10"}}
`), "v2-applier", false))
	compare("applied again in v2", apply(hpaApplied("autoscaling/v2", `
  minReplicas: 2
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
  - type: Pods
    pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: "10"}}
`), "v2-applier", false))
	v1 := hpaApplied("autoscaling/v1", "  targetCPUUtilizationPercentage: 40\n")
	compare("applied in v1", apply(v1, "v1-applier", false))
	compare("applied in v1 with force", apply(v1, "v1-applier", true))
	var out [2]string
	for i, cl := range clusters {
		u := hpaIn("v2")
		if err := cl.c.Get(ctx, client.ObjectKey{Namespace: cl.ns, Name: "applied"}, u); err != nil {
			t.Fatal(err)
		}
		status := obj(t, `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
status:
  currentReplicas: 2
  desiredReplicas: 3
  currentMetrics:
  - type: Resource
    resource: {name: cpu, current: {averageUtilization: 45, averageValue: 120m}}
  - type: Pods
    pods: {metric: {name: rps}, current: {averageValue: "12"}}
  conditions:
  - {type: AbleToScale, status: "True", reason: ReadyForNewScale, message: ok, lastTransitionTime: "2025-01-01T00:00:00Z"}
`)
		u.Object["status"] = status.Object["status"]
		u.SetManagedFields(nil)
		out[i] = outcome(cl.c.Status().Update(ctx, u))
	}
	compare("status written in v2", out)
}

// hpaApplied is the manifest of HPA "applied" in apiVersion with spec
// lines more.
func hpaApplied(apiVersion, more string) string {
	return "apiVersion: " + apiVersion + `
kind: HorizontalPodAutoscaler
metadata: {name: applied}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
` + more
}
