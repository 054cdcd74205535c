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
