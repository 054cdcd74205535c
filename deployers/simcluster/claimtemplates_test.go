package simcluster

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// claimSet is StatefulSet default/db with replicas pods and a claim
// template "data" labelled tier=store; extra goes into its spec (policy,
// podManagementPolicy), class into the template's spec.
func claimSet(replicas int, extra, class string) string {
	return fmt.Sprintf(`
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  replicas: %d
  serviceName: db%s
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: db, volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates:
  - metadata: {name: data, labels: {tier: store}}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}%s}
`, replicas, extra, class)
}

// claim reads claim default/name, or nil when there is none.
func (f *fixture) claim(name string) *corev1.PersistentVolumeClaim {
	f.t.Helper()
	pvc := &corev1.PersistentVolumeClaim{}
	err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: name}, pvc)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return pvc
}

// claimNames are the names of the claims in namespace default.
func (f *fixture) claimNames() string {
	f.t.Helper()
	list := &corev1.PersistentVolumeClaimList{}
	if err := f.c.List(context.Background(), list, client.InNamespace("default")); err != nil {
		f.t.Fatal(err)
	}
	var names []string
	for _, c := range list.Items {
		names = append(names, c.Name)
	}
	return strings.Join(names, ",")
}

// statefulSet reads StatefulSet default/db.
func (f *fixture) statefulSet() *appsv1.StatefulSet {
	f.t.Helper()
	s := &appsv1.StatefulSet{}
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "db"}, s); err != nil {
		f.t.Fatal(err)
	}
	return s
}

// scale sets the replicas of StatefulSet default/db.
func (f *fixture) scale(n int32) {
	f.t.Helper()
	s := f.statefulSet()
	s.Spec.Replicas = ptr.To(n)
	if err := f.c.Update(context.Background(), s); err != nil {
		f.t.Fatal(err)
	}
}

// TestStatefulSetCreatesClaims: each ordinal gets claim TEMPLATE-SET-ORDINAL
// in the set's namespace, labelled with the template's labels and the
// set's selector, owned by the set only with whenDeleted Delete; the set
// is ready once they are bound.
func TestStatefulSetCreatesClaims(t *testing.T) {
	for _, tc := range []struct {
		name, policy string
		owned        bool
	}{
		{"default policy", "", false},
		{"whenDeleted Retain", "\n  persistentVolumeClaimRetentionPolicy: {whenDeleted: Retain}", false},
		{"whenDeleted Delete", "\n  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.create(claimSet(2, tc.policy, ""))
			if got := f.claimNames(); got != "data-db-0,data-db-1" {
				t.Fatalf("claims = %q, want data-db-0,data-db-1", got)
			}
			s := f.statefulSet()
			for _, name := range []string{"data-db-0", "data-db-1"} {
				c := f.claim(name)
				if c.Namespace != "default" || c.Labels["tier"] != "store" || c.Labels["app"] != "db" || len(c.Labels) != 2 {
					t.Errorf("claim %s: namespace %q labels %v; want default, tier=store app=db", name, c.Namespace, c.Labels)
				}
				if c.Status.Phase != corev1.ClaimBound || c.Spec.VolumeMode == nil || c.UID == "" {
					t.Errorf("claim %s: phase %q volumeMode %v uid %q; want Bound, defaulted, stored", name, c.Status.Phase, c.Spec.VolumeMode, c.UID)
				}
				var want []metav1.OwnerReference
				if tc.owned {
					want = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db", UID: s.UID,
						Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}
				}
				if !equality.Semantic.DeepEqual(c.OwnerReferences, want) {
					t.Errorf("claim %s: ownerReferences %v, want %v", name, c.OwnerReferences, want)
				}
			}
			if s.Status.ReadyReplicas != 2 {
				t.Errorf("readyReplicas = %d, want 2", s.Status.ReadyReplicas)
			}
			// Deleting the set leaves the claims, but with whenDeleted Delete.
			if err := f.c.Delete(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			want := "data-db-0,data-db-1"
			if tc.owned {
				want = ""
			}
			if got := f.claimNames(); got != want {
				t.Errorf("claims after the set is deleted = %q, want %q", got, want)
			}
		})
	}
}

// TestStatefulSetReusesClaim: a claim of the name exists (a reinstall after
// helm uninstall): it is used as it is.
func TestStatefulSetReusesClaim(t *testing.T) {
	f := newFixture(t)
	f.create(`
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-db-0, namespace: default, labels: {old: "yes"}}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 5Gi}}}
`)
	before := f.claim("data-db-0")
	f.create(claimSet(1, "", ""))
	after := f.claim("data-db-0")
	if after.UID != before.UID || after.ResourceVersion != before.ResourceVersion || fmt.Sprint(after.Labels) != "map[old:yes]" {
		t.Errorf("claim changed: uid %s->%s rv %s->%s labels %v", before.UID, after.UID, before.ResourceVersion, after.ResourceVersion, after.Labels)
	}
	if got := f.statefulSet().Status.ReadyReplicas; got != 1 {
		t.Errorf("readyReplicas = %d, want 1", got)
	}
}

// TestStatefulSetScaleClaims: scaling up creates the new ordinals' claims;
// scaling down keeps the claims of the ordinals scaled away, but with
// whenScaled Delete, whose claims go with their pods.
func TestStatefulSetScaleClaims(t *testing.T) {
	for _, tc := range []struct{ policy, afterDown string }{
		{"", "data-db-0,data-db-1,data-db-2"},
		{"\n  persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}", "data-db-0"},
		{"\n  persistentVolumeClaimRetentionPolicy: {whenScaled: Delete, whenDeleted: Delete}", "data-db-0"},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			f := newFixture(t)
			f.create(claimSet(1, tc.policy, ""))
			f.scale(3)
			if got := f.claimNames(); got != "data-db-0,data-db-1,data-db-2" {
				t.Fatalf("claims after scale-up = %q", got)
			}
			if got := f.statefulSet().Status.ReadyReplicas; got != 3 {
				t.Errorf("readyReplicas = %d, want 3", got)
			}
			f.scale(1)
			if got := f.claimNames(); got != tc.afterDown {
				t.Errorf("claims after scale-down = %q, want %q", got, tc.afterDown)
			}
			f.scale(2) // a claim scaled away is made again
			if got := f.claim("data-db-1"); got == nil || got.Status.Phase != corev1.ClaimBound {
				t.Errorf("claim data-db-1 after scale-up = %v", got)
			}
		})
	}
}

// TestStatefulSetClaimOfMissingClass: a claim whose StorageClass does not
// exist stays Pending (the PV controller's ProvisioningFailed), the pod
// that mounts it is not scheduled and the set is not ready; WaitsFor names
// the claim and why. Once the class exists, the claim binds and the set
// goes on.
func TestStatefulSetClaimOfMissingClass(t *testing.T) {
	f := newFixture(t)
	f.create(standardClass, claimSet(2, "", ", storageClassName: fast"))
	if got := f.claimNames(); got != "data-db-0" {
		t.Errorf("claims = %q, want data-db-0 (OrderedReady creates the next pod once the first is ready)", got)
	}
	if got := f.claim("data-db-0").Status.Phase; got != corev1.ClaimPending {
		t.Errorf("phase = %q, want Pending", got)
	}
	s := f.statefulSet()
	if s.Status.Replicas != 1 || s.Status.ReadyReplicas != 0 {
		t.Errorf("replicas %d ready %d, want 1 and 0", s.Status.Replicas, s.Status.ReadyReplicas)
	}
	w, err := f.clusters.WaitsFor(context.Background(), f.target, statefulSetGVK, "default", "db")
	want := Wait{Missing: unboundImmediate, Claim: "data-db-0", ClaimPending: `storageclass.storage.k8s.io "fast" not found`}
	if err != nil || w != want {
		t.Errorf("WaitsFor = %+v, %v; want %+v", w, err, want)
	}
	f.create("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: example.com/fast\n")
	if got := f.claimNames(); got != "data-db-0,data-db-1" {
		t.Errorf("claims once the class exists = %q", got)
	}
	if got := f.statefulSet().Status.ReadyReplicas; got != 2 {
		t.Errorf("readyReplicas once the class exists = %d, want 2", got)
	}
}

// standardClass is a StorageClass other than the one the claims of the
// tests below name: with it, the simulated cluster models its storage.
const standardClass = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: standard}\nprovisioner: example.com/standard\n"

// TestClaimOfMissingClassPending: a plain claim of a StorageClass that does
// not exist stays Pending, too, on a cluster that has StorageClasses.
func TestClaimOfMissingClassPending(t *testing.T) {
	f := newFixture(t)
	f.create(standardClass, pvcManifest(", storageClassName: fast"))
	if got := f.claimPhase("data"); got != "Pending" {
		t.Errorf("phase = %q, want Pending", got)
	}
}

// TestClaimOfAnyClassBindsWithoutClasses: on a simulated cluster without
// any StorageClass (the default one: it stands for a cluster whose storage
// lscli does not model, as a claim of no class binds there), a claim that
// names a class binds, as it would on the user's cluster, which has the
// classes its charts name; a StatefulSet with such claims gets ready.
func TestClaimOfAnyClassBindsWithoutClasses(t *testing.T) {
	f := newFixture(t)
	f.create(pvcManifest(", storageClassName: premium-rwo"))
	if got := f.claimPhase("data"); got != "Bound" {
		t.Errorf("phase = %q, want Bound", got)
	}
	f.create(claimSet(2, "", ", storageClassName: premium-rwo"))
	if got := f.statefulSet().Status.ReadyReplicas; got != 2 {
		t.Errorf("readyReplicas = %d, want 2", got)
	}
}

// TestStatefulSetClaimsFirstConsumer: claims of a WaitForFirstConsumer class
// bind when the set's pods are scheduled; with Parallel all at once, and a
// claim a rule holds keeps its ordinal's pod not ready.
func TestStatefulSetClaimsFirstConsumer(t *testing.T) {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "PersistentVolumeClaim", Name: "data-db-1"}, Hang: true})
	f.create(wffcClass, claimSet(3, "\n  podManagementPolicy: Parallel", ", storageClassName: local"))
	for name, want := range map[string]string{"data-db-0": "Bound", "data-db-1": "Pending", "data-db-2": "Bound"} {
		if got := f.claimPhase(name); got != want {
			t.Errorf("claim %s phase = %q, want %s", name, got, want)
		}
	}
	s := f.statefulSet()
	if s.Status.Replicas != 3 || s.Status.ReadyReplicas != 2 {
		t.Errorf("replicas %d ready %d, want 3 and 2", s.Status.Replicas, s.Status.ReadyReplicas)
	}
	w, err := f.clusters.WaitsFor(context.Background(), f.target, statefulSetGVK, "default", "db")
	if err != nil || w.Claim != "data-db-1" {
		t.Errorf("WaitsFor = %+v, %v; want claim data-db-1", w, err)
	}
}

// TestStatefulSetClaimOfMissingClassRestored: a saved cluster whose set
// waits for a claim of a missing class goes on, once restored, when the
// class is written (a later lscli command).
func TestStatefulSetClaimOfMissingClassRestored(t *testing.T) {
	f := newFixture(t)
	f.create(standardClass, claimSet(2, "", ", storageClassName: fast"))
	g := f.restored()
	g.c = g.client()
	g.create("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: example.com/fast\n")
	if got := g.claimNames(); got != "data-db-0,data-db-1" {
		t.Errorf("claims once the class exists = %q", got)
	}
	if got := g.statefulSet().Status.ReadyReplicas; got != 2 {
		t.Errorf("readyReplicas once the class exists = %d, want 2", got)
	}
}
