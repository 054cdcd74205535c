package simcluster

import (
	"context"
	"strings"
	"testing"

	"github.com/lscli/lscli/deployers/readiness"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// statefulSet is a StatefulSet named vault with updateStrategy strategy.
func statefulSet(strategy string) string {
	return `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: vault, namespace: default}
spec:
  replicas: 1
  serviceName: vault-internal
  updateStrategy: {type: ` + strategy + `}
  selector: {matchLabels: {app: vault}}
  template:
    metadata: {labels: {app: vault}}
    spec: {containers: [{name: vault, image: "hashicorp/vault:2.0.3"}]}
`
}

// stsUpdate changes the StatefulSet vault: its image, or its replicas when
// replicas > 0.
func (f *fixture) stsUpdate(image string, replicas int64) {
	f.t.Helper()
	u := f.get("apps/v1", "StatefulSet", "default", "vault")
	if image != "" {
		cs, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
		cs[0].(map[string]any)["image"] = image
		if err := unstructured.SetNestedSlice(u.Object, cs, "spec", "template", "spec", "containers"); err != nil {
			f.t.Fatal(err)
		}
	}
	if replicas > 0 {
		if err := unstructured.SetNestedField(u.Object, replicas, "spec", "replicas"); err != nil {
			f.t.Fatal(err)
		}
	}
	if err := f.c.Update(context.Background(), u); err != nil {
		f.t.Fatalf("update: %v", err)
	}
}

func (f *fixture) sts() (*appsv1.StatefulSet, *unstructured.Unstructured) {
	f.t.Helper()
	s := &appsv1.StatefulSet{}
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "vault"}, s); err != nil {
		f.t.Fatal(err)
	}
	return s, f.get("apps/v1", "StatefulSet", "default", "vault")
}

// TestStatefulSetOnDeleteKeepsItsPods: with updateStrategy OnDelete the
// StatefulSet controller (pkg/controller/statefulset) creates missing pods
// from the update revision but replaces none: after a change of the
// template the running pods stay at the revision they were created from
// (ready, so available) until someone deletes them, so updatedReplicas
// counts only pods created since. Landscaper's default readiness check
// (CheckStatefulSet wants updatedReplicas) is then not met; helm's wait
// and kstatus pass an OnDelete StatefulSet. Going back to the template
// the pods run makes them up to date again.
func TestStatefulSetOnDeleteKeepsItsPods(t *testing.T) {
	f := newFixture(t)
	f.create(statefulSet("OnDelete"))
	first, _ := f.sts()
	if st := first.Status; st.UpdatedReplicas != 1 || st.CurrentReplicas != 1 || st.AvailableReplicas != 1 ||
		st.CurrentRevision != st.UpdateRevision || !strings.HasPrefix(st.UpdateRevision, "vault-") {
		t.Fatalf("new OnDelete StatefulSet: status %+v, want all pods at one revision vault-HASH", st)
	}

	f.stsUpdate("hashicorp/vault:2.0.4", 0)
	s, u := f.sts()
	st := s.Status
	if st.ObservedGeneration != 2 || st.Replicas != 1 || st.UpdatedReplicas != 0 || st.CurrentReplicas != 1 ||
		st.ReadyReplicas != 1 || st.AvailableReplicas != 1 || st.CurrentRevision != first.Status.CurrentRevision ||
		st.UpdateRevision == st.CurrentRevision || !strings.HasPrefix(st.UpdateRevision, "vault-") {
		t.Fatalf("OnDelete StatefulSet after a template change: status %+v, want the old pod kept (updated 0, current 1 at %s, a new update revision)",
			st, first.Status.CurrentRevision)
	}
	if err := readiness.Object(u); err == nil || !strings.Contains(err.Error(), "not enough ready replicas (1/1)") {
		t.Errorf("Landscaper's default readiness check = %v, want not enough ready replicas (1/1)", err)
	}
	if res, err := status.Compute(u); err != nil || res.Status != status.CurrentStatus {
		t.Errorf("kstatus = %v, %v, want Current (OnDelete)", res, err)
	}

	f.stsUpdate("", 3) // pods 1 and 2 are created from the update revision
	if s, _ := f.sts(); s.Status.UpdatedReplicas != 2 || s.Status.CurrentReplicas != 1 || s.Status.Replicas != 3 {
		t.Errorf("scaled to 3: status %+v, want 2 updated, 1 current", s.Status)
	}

	f.stsUpdate("hashicorp/vault:2.0.3", 0) // the template pod 0 runs
	s, _ = f.sts()
	if s.Status.UpdateRevision != first.Status.UpdateRevision || s.Status.UpdatedReplicas != 1 || s.Status.CurrentReplicas != 1 {
		t.Errorf("back to the first template: status %+v, want update revision %s with pod 0 updated", s.Status, first.Status.UpdateRevision)
	}
}

// TestStatefulSetRollingUpdateReplacesItsPods: with RollingUpdate (the
// default) the controller replaces every pod: after a template change all
// are updated and the current revision is the update revision, a new one.
func TestStatefulSetRollingUpdateReplacesItsPods(t *testing.T) {
	f := newFixture(t)
	f.create(statefulSet("RollingUpdate"))
	first, _ := f.sts()
	f.stsUpdate("hashicorp/vault:2.0.4", 0)
	s, u := f.sts()
	if st := s.Status; st.UpdatedReplicas != 1 || st.CurrentReplicas != 1 || st.CurrentRevision != st.UpdateRevision ||
		st.UpdateRevision == first.Status.UpdateRevision {
		t.Errorf("RollingUpdate StatefulSet after a template change: status %+v, want all pods at a new revision", st)
	}
	if err := readiness.Object(u); err != nil {
		t.Errorf("Landscaper's default readiness check = %v, want ready", err)
	}
}

// TestStatefulSetRevisionName: the revision is named NAME-HASH, the hash
// of the template (not of other fields) and of the collision count.
func TestStatefulSetRevisionName(t *testing.T) {
	s := &appsv1.StatefulSet{}
	s.Name = "vault"
	s.Spec.Template.Spec.Containers = []corev1.Container{{Name: "vault", Image: "hashicorp/vault:2.0.4"}}
	a := statefulSetRevision(s)
	s.Spec.Replicas = new(int32(3))
	if b := statefulSetRevision(s); b != a {
		t.Errorf("revision changed with replicas: %s, %s", a, b)
	}
	s.Spec.Template.Spec.Containers[0].Image = "hashicorp/vault:2.0.3"
	c := statefulSetRevision(s)
	s.Status.CollisionCount = new(int32(1))
	d := statefulSetRevision(s)
	if !strings.HasPrefix(a, "vault-") || c == a || d == c {
		t.Errorf("revisions %s, %s, %s: want vault-HASH, another for another template and collision count", a, c, d)
	}
}

// TestStatefulSetSavedRevision: a StatefulSet of a state saved while every
// revision was named NAME-sim runs its template: an update of the object
// that keeps the template leaves all pods updated.
func TestStatefulSetSavedRevision(t *testing.T) {
	s := &appsv1.StatefulSet{}
	s.Name, s.Generation = "vault", 2
	s.Spec.UpdateStrategy.Type = appsv1.OnDeleteStatefulSetStrategyType
	s.Status = appsv1.StatefulSetStatus{ObservedGeneration: 1, Replicas: 1, ReadyReplicas: 1, CurrentReplicas: 1, UpdatedReplicas: 1,
		AvailableReplicas: 1, CurrentRevision: "vault-sim", UpdateRevision: "vault-sim"}
	if st := statefulSetStatus(s, 1, 1); st.UpdatedReplicas != 1 || st.CurrentRevision != st.UpdateRevision {
		t.Errorf("status %+v, want the pod at the template's revision", st)
	}
}

// TestWaitsForOutdatedPods: WaitsFor names the pods of an OnDelete
// StatefulSet that run an older template, for the hint of a readiness
// check that timed out on it; nothing while all run the update revision.
func TestWaitsForOutdatedPods(t *testing.T) {
	f := newFixture(t)
	f.create(statefulSet("OnDelete"))
	gvk := appsv1.SchemeGroupVersion.WithKind("StatefulSet")
	if w, err := f.clusters.WaitsFor(context.Background(), f.target, gvk, "default", "vault"); err != nil || w != (Wait{}) {
		t.Fatalf("new StatefulSet: WaitsFor = %+v, %v, want nothing", w, err)
	}
	f.stsUpdate("hashicorp/vault:2.0.4", 0)
	s, _ := f.sts()
	w, err := f.clusters.WaitsFor(context.Background(), f.target, gvk, "default", "vault")
	if want := (Wait{Outdated: 1, Replicas: 1, Revision: s.Status.UpdateRevision}); err != nil || w != want {
		t.Errorf("after a template change: WaitsFor = %+v, %v, want %+v", w, err, want)
	}
}
