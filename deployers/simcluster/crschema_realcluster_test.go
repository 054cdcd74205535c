package simcluster

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// crSchemaCases are custom resources of schemaCRDManifest's Gadget: valid
// ones whose stored spec is compared, and invalid ones whose error is.
var crSchemaCases = map[string]string{
	"pruned and defaulted": gadgetManifest,
	"pattern":              `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"pattern","namespace":"default"},"spec":{"url":"ftp://x"}}`,
	"required":             `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"required","namespace":"default"},"spec":{}}`,
	"enum":                 `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"enum","namespace":"default"},"spec":{"url":"http://x","mode":"medium"}}`,
	"type":                 `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"type","namespace":"default"},"spec":{"url":"http://x","replicas":"two"}}`,
	"minimum":              `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"minimum","namespace":"default"},"spec":{"url":"http://x","replicas":-1}}`,
	"cel":                  `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"cel","namespace":"default"},"spec":{"url":"http://x","replicas":11}}`,
	"null":                 `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"null","namespace":"default"},"spec":{"url":"http://x","mode":null,"interval":null}}`,
}

// TestRealClusterCustomResourceSchema creates schemaCRDManifest's CRD and
// each of crSchemaCases on a real kube-apiserver and on a simulated
// cluster and compares the stored spec (pruned and defaulted) or the
// error (the schema's and the CEL rule's validation).
func TestRealClusterCustomResourceSchema(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	f, ns := gadgetClusters(t, tc)
	for name, manifest := range crSchemaCases {
		t.Run(name, func(t *testing.T) {
			sim, real := obj(t, manifest), obj(t, manifest)
			real.SetNamespace(ns)
			errSim, errReal := f.c.Create(ctx, sim), tc.Client.Create(ctx, real)
			if errString(errSim) != errString(errReal) {
				t.Fatalf("create\nsimulated: %v\nreal:      %v", errSim, errReal)
			}
			if errReal != nil {
				return
			}
			gotSim, gotReal := &unstructured.Unstructured{}, &unstructured.Unstructured{}
			gotSim.SetGroupVersionKind(sim.GroupVersionKind())
			gotReal.SetGroupVersionKind(real.GroupVersionKind())
			if err := f.c.Get(ctx, client.ObjectKeyFromObject(sim), gotSim); err != nil {
				t.Fatal(err)
			}
			if err := tc.Client.Get(ctx, client.ObjectKeyFromObject(real), gotReal); err != nil {
				t.Fatal(err)
			}
			if s, r := specJSON(t, gotSim), specJSON(t, gotReal); s != r {
				t.Errorf("stored spec\nsimulated: %s\nreal:      %s", s, r)
			}
		})
	}
}

// gadgetClusters creates schemaCRDManifest's CRD on a simulated cluster and
// on the real one, and returns the simulated cluster and a namespace of the
// real one, once the real one serves Gadgets.
func gadgetClusters(t *testing.T, tc *testcluster.Cluster) (*fixture, string) {
	probe := obj(t, gadgetManifest)
	probe.SetName("probe")
	return crdClusters(t, tc, schemaCRDManifest, probe)
}

// crdClusters creates the CRD of crdManifest on a simulated cluster and on
// the real one, and returns the simulated cluster and a namespace of the
// real one, once the real one stores probe (a custom resource of the CRD,
// created in that namespace) in it.
func crdClusters(t *testing.T, tc *testcluster.Cluster, crdManifest string, probe client.Object) (*fixture, string) {
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	f.create(crdManifest)
	if err := tc.Client.Create(ctx, obj(t, crdManifest)); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	probe.SetNamespace(ns)
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		err := tc.Client.Create(ctx, probe.DeepCopyObject().(client.Object))
		return err == nil || apierrors.IsAlreadyExists(err), nil
	}); err != nil {
		t.Fatalf("the real cluster does not serve %s: %v", probe.GetObjectKind().GroupVersionKind().Kind, err)
	}
	return f, ns
}

// TestRealClusterCustomResourceUpdates updates a Gadget on a real
// kube-apiserver and on a simulated cluster, as a deployer writing a
// manifest again does, and compares what they store or the error: an
// update is pruned and defaulted, an invalid one refused, the status
// kept; a status update changes only the status.
func TestRealClusterCustomResourceUpdates(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	f, ns := gadgetClusters(t, tc)
	sim, real := obj(t, gadgetManifest), obj(t, gadgetManifest)
	real.SetNamespace(ns)
	if err := f.c.Create(ctx, sim); err != nil {
		t.Fatal(err)
	}
	if err := tc.Client.Create(ctx, real); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		status bool
		change func(u *unstructured.Unstructured)
	}{
		{"status", true, func(u *unstructured.Unstructured) {
			u.Object["status"] = map[string]any{"ready": true, "unknown": "x"}
			u.Object["spec"].(map[string]any)["url"] = "http://from-status"
		}},
		{"pruned and defaulted", false, func(u *unstructured.Unstructured) {
			u.Object["spec"] = map[string]any{"url": "http://y", "again": "dropped", "interval": nil}
			u.Object["status"] = map[string]any{"ready": false}
		}},
		{"invalid", false, func(u *unstructured.Unstructured) {
			u.Object["spec"].(map[string]any)["replicas"] = int64(-3)
		}},
		{"invalid status", true, func(u *unstructured.Unstructured) {
			u.Object["status"] = map[string]any{"ready": "very"}
		}},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			var errSim, errReal error
			for _, w := range []struct {
				c   client.Client
				u   *unstructured.Unstructured
				err *error
			}{{f.c, sim, &errSim}, {tc.Client, real, &errReal}} {
				if err := w.c.Get(ctx, client.ObjectKeyFromObject(w.u), w.u); err != nil {
					t.Fatal(err)
				}
				step.change(w.u)
				if step.status {
					*w.err = w.c.Status().Update(ctx, w.u)
				} else {
					*w.err = w.c.Update(ctx, w.u)
				}
				if err := w.c.Get(ctx, client.ObjectKeyFromObject(w.u), w.u); err != nil {
					t.Fatal(err)
				}
			}
			if errString(errSim) != errString(errReal) {
				t.Errorf("update\nsimulated: %v\nreal:      %v", errSim, errReal)
			}
			for _, part := range []string{"spec", "status"} {
				s, _ := json.Marshal(sim.Object[part])
				r, _ := json.Marshal(real.Object[part])
				if string(s) != string(r) {
					t.Errorf("stored %s\nsimulated: %s\nreal:      %s", part, s, r)
				}
			}
		})
	}
}

// errString is err's text, "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return strings.TrimSpace(err.Error())
}

// specJSON is u's spec as JSON.
func specJSON(t *testing.T, u *unstructured.Unstructured) string {
	b, err := json.Marshal(u.Object["spec"])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
