package simcluster

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// cephClusterCRDManifest is a CRD in the shape of Rook's CephCluster
// (rook/rook deploy/examples crds.yaml, reduced): transition rules
// (x-kubernetes-validations with oldSelf) on dataDirHostPath and on a key
// generation that may only grow, a cross-field rule with has() on mon,
// and a maximum.
const cephClusterCRDManifest = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: cephclusters.ceph.example.com}
spec:
  group: ceph.example.com
  names: {kind: CephCluster, listKind: CephClusterList, plural: cephclusters, singular: cephcluster}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              dataDirHostPath:
                type: string
                pattern: ^/(\S+)
                x-kubernetes-validations:
                - {message: DataDirHostPath is immutable, rule: self == oldSelf}
              mon:
                type: object
                nullable: true
                properties:
                  count: {type: integer, minimum: 0, maximum: 9}
                  zones: {type: array, items: {type: string}}
                x-kubernetes-validations:
                - {message: zones must be less than or equal to count, rule: '!has(self.zones) || (has(self.zones) && (size(self.zones) <= self.count))'}
              keyGeneration:
                type: integer
                x-kubernetes-validations:
                - {message: keyGeneration cannot be decreased, rule: self >= oldSelf}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

// TestRealClusterCustomResourceTransitionRules writes a CephCluster and
// updates of it, as a manifest deployer writing a changed CephCluster
// does, to a real kube-apiserver and to a simulated cluster, and compares
// the errors and the stored spec: a changed dataDirHostPath and a smaller
// key generation are refused by their transition rules, one dropped is
// not (a transition rule needs both), and so on.
func TestRealClusterCustomResourceTransitionRules(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	const manifest = `{"apiVersion":"ceph.example.com/v1","kind":"CephCluster","metadata":{"name":"rook-ceph"},` +
		`"spec":{"dataDirHostPath":"/var/lib/rook","mon":{"count":3},"keyGeneration":2}}`
	probe := obj(t, manifest)
	probe.SetName("probe")
	f, ns := crdClusters(t, tc, cephClusterCRDManifest, probe)
	sim, real := obj(t, manifest), obj(t, manifest)
	sim.SetNamespace("default")
	real.SetNamespace(ns)
	if err := f.c.Create(ctx, sim); err != nil {
		t.Fatal(err)
	}
	if err := tc.Client.Create(ctx, real); err != nil {
		t.Fatal(err)
	}
	spec := func(u *unstructured.Unstructured) map[string]any { return u.Object["spec"].(map[string]any) }
	for _, step := range []struct {
		name   string
		change func(u *unstructured.Unstructured)
	}{
		{"other field changed", func(u *unstructured.Unstructured) { spec(u)["mon"] = map[string]any{"count": int64(5)} }},
		{"dataDirHostPath changed", func(u *unstructured.Unstructured) { spec(u)["dataDirHostPath"] = "/mnt/rook" }},
		{"dataDirHostPath changed and invalid", func(u *unstructured.Unstructured) { spec(u)["dataDirHostPath"] = "rook" }},
		{"keyGeneration decreased", func(u *unstructured.Unstructured) { spec(u)["keyGeneration"] = int64(1) }},
		{"two rules broken", func(u *unstructured.Unstructured) {
			spec(u)["keyGeneration"] = int64(1)
			spec(u)["dataDirHostPath"] = "/mnt/rook"
		}},
		{"more zones than mons", func(u *unstructured.Unstructured) {
			spec(u)["mon"] = map[string]any{"count": int64(1), "zones": []any{"a", "b"}}
		}},
		{"ten mons", func(u *unstructured.Unstructured) { spec(u)["mon"] = map[string]any{"count": int64(10)} }},
		{"schema and rules broken in several fields", func(u *unstructured.Unstructured) {
			spec(u)["mon"] = map[string]any{"count": int64(30)}
			spec(u)["dataDirHostPath"] = "rook"
			spec(u)["keyGeneration"] = int64(1)
		}},
		{"dataDirHostPath dropped", func(u *unstructured.Unstructured) { delete(spec(u), "dataDirHostPath") }},
		{"dataDirHostPath set again", func(u *unstructured.Unstructured) { spec(u)["dataDirHostPath"] = "/mnt/rook" }},
	} {
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
				*w.err = w.c.Update(ctx, w.u)
				if err := w.c.Get(ctx, client.ObjectKeyFromObject(w.u), w.u); err != nil {
					t.Fatal(err)
				}
			}
			if causesOf(errSim) != causesOf(errReal) || (len(causes(errReal)) < 2 && errString(errSim) != errString(errReal)) {
				t.Errorf("update\nsimulated: %v\nreal:      %v", errSim, errReal)
			} else {
				t.Logf("update: %v", errReal)
			}
			s, _ := json.Marshal(sim.Object["spec"])
			r, _ := json.Marshal(real.Object["spec"])
			if string(s) != string(r) {
				t.Errorf("stored spec\nsimulated: %s\nreal:      %s", s, r)
			}
		})
	}
}

// causes are the causes of err's status (an Invalid's fields and
// messages), sorted: kube-apiserver lists the CEL errors of several fields
// in Go's map order, which changes from request to request.
func causes(err error) []string {
	var out []string
	if st, ok := err.(apierrors.APIStatus); ok && st.Status().Details != nil {
		for _, c := range st.Status().Details.Causes {
			out = append(out, c.Field+": "+c.Message)
		}
	}
	slices.Sort(out)
	return out
}

// causesOf is causes(err) as one string, with err's reason.
func causesOf(err error) string {
	return string(apierrors.ReasonForError(err)) + " " + strings.Join(causes(err), "; ")
}
