package simcluster

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterAPIServiceValidation creates apiServiceCases on a real
// kube-apiserver and on a simulated cluster and compares the answers.
func TestRealClusterAPIServiceValidation(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	for _, c := range apiServiceCases {
		f := newFixture(t)
		u := obj(t, c.manifest)
		real := outcome(tc.Client.Create(ctx, u))
		if real == "" {
			t.Cleanup(func() { _ = tc.Client.Delete(ctx, u) })
		}
		sim := outcome(f.c.Create(ctx, obj(t, c.manifest)))
		if sim != real {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s", c.name, sim, real)
		}
		if real != c.want {
			t.Errorf("%s: the case's want is not the real answer:\nwant: %s\nreal: %s", c.name, c.want, real)
		}
	}
}

// timeRE matches the RFC 3339 times of conditions.
var timeRE = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)

// TestRealClusterAPIServiceStatus compares what a real kube-apiserver and
// a simulated cluster store for a local APIService and for one of a
// Service that does not exist (its aggregator's availability controller
// runs in process): the Available condition (but its time), the spec
// defaults, generation and namespace.
func TestRealClusterAPIServiceStatus(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	missing := strings.NewReplacer("v1beta1.metrics.k8s.io", "v1.missing.lscli.test", "metrics.k8s.io", "missing.lscli.test",
		"version: v1beta1", "version: v1", "name: metrics-server", "name: lscli-missing").Replace(metricsAPIService)
	for _, m := range []string{localAPIService, missing} {
		f := newFixture(t)
		u := obj(t, m)
		if err := tc.Client.Create(ctx, u); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = tc.Client.Delete(ctx, u) })
		sim := obj(t, m)
		if err := f.c.Create(ctx, sim); err != nil {
			t.Fatal(err)
		}
		real := &unstructured.Unstructured{}
		real.SetGroupVersionKind(u.GroupVersionKind())
		var got string
		for range 50 { // the availability controller of a service-backed one runs after the create
			if err := tc.Client.Get(ctx, client.ObjectKeyFromObject(u), real); err != nil {
				t.Fatal(err)
			}
			if got = availableOf(t, real); got != "" {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		simGot := f.get("apiregistration.k8s.io/v1", "APIService", "", u.GetName())
		if a, b := timeRE.ReplaceAllString(availableOf(t, simGot), "T"), timeRE.ReplaceAllString(got, "T"); a != b {
			t.Errorf("%s: Available\nsimulated: %s\nreal:      %s", u.GetName(), a, b)
		}
		simSpec, _, _ := unstructured.NestedMap(simGot.Object, "spec")
		realSpec, _, _ := unstructured.NestedMap(real.Object, "spec")
		if a, b := jsonString(t, simSpec), jsonString(t, realSpec); a != b {
			t.Errorf("%s: spec\nsimulated: %s\nreal:      %s", u.GetName(), a, b)
		}
		if simGot.GetGeneration() != real.GetGeneration() || real.GetNamespace() != "" || simGot.GetNamespace() != "" {
			t.Errorf("%s: generation %d, real %d; namespace %q, real %q", u.GetName(), simGot.GetGeneration(), real.GetGeneration(),
				simGot.GetNamespace(), real.GetNamespace())
		}
	}
}

// jsonString is v as JSON (maps with sorted keys).
func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
