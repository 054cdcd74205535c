package simcluster

import (
	"encoding/json"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// wffcClass is a StorageClass whose claims bind on their first consumer.
const wffcClass = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local}\nprovisioner: example.com/local\nvolumeBindingMode: WaitForFirstConsumer\n"

// claimPhase is the phase of claim default/name.
func (f *fixture) claimPhase(name string) string {
	f.t.Helper()
	phase, _, _ := unstructured.NestedString(f.get("v1", "PersistentVolumeClaim", "default", name).Object, "status", "phase")
	return phase
}

// TestClaimWaitsForFirstConsumer: a claim of a WaitForFirstConsumer class
// stays Pending until pods that use it are scheduled: a workload of each
// kind that uses it binds it (and becomes ready), whichever comes first;
// a claim nobody uses, or whose consumer's pods are not created or not
// scheduled, stays Pending.
func TestClaimWaitsForFirstConsumer(t *testing.T) {
	claim := pvcManifest(", storageClassName: local")
	t.Run("nobody uses it", func(t *testing.T) {
		f := newFixture(t)
		f.create(wffcClass, claim)
		f.clock.Step(time.Hour)
		f.create("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: default}\n")
		if got := f.claimPhase("data"); got != "Pending" {
			t.Errorf("phase = %q, want Pending", got)
		}
	})
	for _, k := range workloadKinds {
		t.Run(k.kind+" after the claim", func(t *testing.T) {
			f := newFixture(t)
			f.create(wffcClass, claim)
			f.clock.Step(time.Minute)
			f.create(workload(k.kind, references[1].spec))
			if got := f.claimPhase("data"); got != "Bound" {
				t.Errorf("phase = %q, want Bound", got)
			}
			if u := f.get(k.apiVersion, k.kind, "default", "w"); !ready(t, u) {
				t.Errorf("not ready; status: %v", u.Object["status"])
			}
		})
		t.Run(k.kind+" before the claim", func(t *testing.T) {
			f := newFixture(t)
			f.create(wffcClass, workload(k.kind, references[1].spec))
			f.clock.Step(time.Minute)
			f.create(claim)
			if got := f.claimPhase("data"); got != "Bound" {
				t.Errorf("phase = %q, want Bound", got)
			}
			if u := f.get(k.apiVersion, k.kind, "default", "w"); !ready(t, u) {
				t.Errorf("not ready; status: %v", u.Object["status"])
			}
		})
	}
	// Pods not created, or not scheduled, until another object exists.
	for _, tc := range []struct{ name, spec, other, what string }{
		{"pods not created without their ServiceAccount", `
      serviceAccountName: sa
      containers: [{name: c, image: busybox}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`, references[0].object, "the ServiceAccount"},
		{"pods not scheduled without another claim", `
      containers: [{name: c, image: busybox}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}, {name: more, persistentVolumeClaim: {claimName: more}}]
`, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: more, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n", "the other claim"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.create(wffcClass, claim, workload("Deployment", tc.spec))
			if got := f.claimPhase("data"); got != "Pending" {
				t.Errorf("phase = %q, want Pending", got)
			}
			f.create(tc.other)
			if got := f.claimPhase("data"); got != "Bound" {
				t.Errorf("phase once %s exists = %q, want Bound", tc.what, got)
			}
			if u := f.get("apps/v1", "Deployment", "default", "w"); !ready(t, u) {
				t.Errorf("not ready; status: %v", u.Object["status"])
			}
		})
	}
	t.Run("pods scheduled without their Secret", func(t *testing.T) {
		f := newFixture(t)
		f.create(wffcClass, claim, workload("Deployment", `
      containers: [{name: c, image: busybox}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}, {name: s, secret: {secretName: creds}}]
`))
		if got := f.claimPhase("data"); got != "Bound" {
			t.Errorf("phase = %q, want Bound", got)
		}
		if u := f.get("apps/v1", "Deployment", "default", "w"); ready(t, u) {
			t.Errorf("ready without the Secret; status: %v", u.Object["status"])
		}
	})
	t.Run("no pods at zero replicas", func(t *testing.T) {
		f := newFixture(t)
		f.create(wffcClass, claim)
		u := obj(t, workload("Deployment", references[1].spec))
		if err := unstructured.SetNestedField(u.Object, int64(0), "spec", "replicas"); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(u.Object)
		f.create(string(raw))
		if got := f.claimPhase("data"); got != "Pending" {
			t.Errorf("phase = %q, want Pending", got)
		}
	})
	t.Run("consumer in another namespace", func(t *testing.T) {
		f := newFixture(t)
		f.create(wffcClass, claim, "apiVersion: v1\nkind: Namespace\nmetadata: {name: other}\n",
			"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: other}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: local}\n")
		u := obj(t, workload("Deployment", references[1].spec))
		u.SetNamespace("other")
		raw, _ := json.Marshal(u.Object)
		f.create(string(raw))
		if got := f.claimPhase("data"); got != "Pending" {
			t.Errorf("phase = %q, want Pending", got)
		}
	})
	t.Run("a rule's duration counts from the consumer", func(t *testing.T) {
		f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "PersistentVolumeClaim"}, Duration: "2m"})
		f.create(wffcClass, claim)
		f.clock.Step(time.Hour)
		f.create(workload("Deployment", references[1].spec))
		f.clock.Step(time.Minute)
		if got := f.claimPhase("data"); got != "Pending" {
			t.Errorf("phase a minute after the consumer = %q, want Pending", got)
		}
		f.clock.Step(time.Minute)
		if got := f.claimPhase("data"); got != "Bound" {
			t.Errorf("phase two minutes after the consumer = %q, want Bound", got)
		}
		if u := f.get("apps/v1", "Deployment", "default", "w"); !ready(t, u) {
			t.Errorf("not ready; status: %v", u.Object["status"])
		}
	})
	t.Run("restored", func(t *testing.T) {
		f := newFixture(t)
		f.create(wffcClass, claim)
		g := f.restored()
		g.c = g.client()
		if got := g.claimPhase("data"); got != "Pending" {
			t.Errorf("restored phase = %q, want Pending", got)
		}
		g.create(workload("Deployment", references[1].spec))
		if got := g.claimPhase("data"); got != "Bound" {
			t.Errorf("phase once a consumer exists = %q, want Bound", got)
		}
	})
}
