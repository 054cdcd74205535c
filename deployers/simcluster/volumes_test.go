package simcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// fastClass is a StorageClass of immediate binding with reclaim policy
// policy ("" leaves it to the default, Delete).
func fastClass(policy string) string {
	m := "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: example.com/fast\nmountOptions: [noatime]\n"
	if policy != "" {
		m += "reclaimPolicy: " + policy + "\n"
	}
	return m
}

// volume reads PersistentVolume name, or nil when there is none.
func (f *fixture) volume(name string) *corev1.PersistentVolume {
	f.t.Helper()
	pv := &corev1.PersistentVolume{}
	err := f.c.Get(context.Background(), client.ObjectKey{Name: name}, pv)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return pv
}

// checkProvisioned checks that claim default/name is bound to a volume
// provisioned for it, pvc-UID, of class and provisioner, with the PV
// controller's annotations on both, and returns the volume.
func (f *fixture) checkProvisioned(name, class, provisioner string) *corev1.PersistentVolume {
	f.t.Helper()
	c := f.claim(name)
	if c == nil {
		f.t.Fatalf("claim %s missing", name)
	}
	want := "pvc-" + string(c.UID)
	if c.Status.Phase != corev1.ClaimBound || c.Spec.VolumeName != want {
		f.t.Fatalf("claim %s: phase %q volumeName %q, want Bound, %s", name, c.Status.Phase, c.Spec.VolumeName, want)
	}
	for k, v := range map[string]string{"pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes",
		"volume.beta.kubernetes.io/storage-provisioner": provisioner, "volume.kubernetes.io/storage-provisioner": provisioner} {
		if c.Annotations[k] != v {
			f.t.Errorf("claim %s: annotation %s = %q, want %q (all: %v)", name, k, c.Annotations[k], v, c.Annotations)
		}
	}
	pv := f.volume(want)
	if pv == nil {
		f.t.Fatalf("volume %s of claim %s missing", want, name)
	}
	ref := pv.Spec.ClaimRef
	if ref == nil || ref.Kind != "PersistentVolumeClaim" || ref.APIVersion != "v1" || ref.Namespace != "default" || ref.Name != name || ref.UID != c.UID {
		f.t.Errorf("volume %s: claimRef %+v, want the claim default/%s uid %s", want, ref, name, c.UID)
	}
	size := pv.Spec.Capacity[corev1.ResourceStorage]
	if pv.Status.Phase != corev1.VolumeBound || pv.Spec.StorageClassName != class || size.String() != "1Gi" ||
		len(pv.Spec.AccessModes) != 1 || pv.Spec.AccessModes[0] != corev1.ReadWriteOnce ||
		pv.Annotations["pv.kubernetes.io/provisioned-by"] != provisioner || pv.Spec.CSI == nil || pv.Spec.CSI.Driver != provisioner {
		f.t.Errorf("volume %s: phase %q class %q capacity %s access %v annotations %v source %+v; want Bound, %q, 1Gi, [ReadWriteOnce], provisioned by %s",
			want, pv.Status.Phase, pv.Spec.StorageClassName, size.String(), pv.Spec.AccessModes, pv.Annotations, pv.Spec.CSI, class, provisioner)
	}
	return pv
}

// TestBoundClaimHasVolume: a claim the fake controller binds gets a volume
// provisioned for it, pvc-UID, with the class's reclaim policy (Delete by
// default) and mount options, and its spec.volumeName names it: at once
// for immediate binding, once a consumer is scheduled for
// WaitForFirstConsumer, for a StatefulSet's claim templates, and on a
// cluster without StorageClasses.
func TestBoundClaimHasVolume(t *testing.T) {
	t.Run("immediate", func(t *testing.T) {
		f := newFixture(t)
		f.create(fastClass(""), pvcManifest(", storageClassName: fast"))
		pv := f.checkProvisioned("data", "fast", "example.com/fast")
		if pv.Spec.PersistentVolumeReclaimPolicy != corev1.PersistentVolumeReclaimDelete ||
			strings.Join(pv.Spec.MountOptions, ",") != "noatime" || pv.Spec.VolumeMode == nil || *pv.Spec.VolumeMode != corev1.PersistentVolumeFilesystem {
			t.Errorf("volume: reclaim %q mountOptions %v volumeMode %v; want Delete, [noatime], Filesystem",
				pv.Spec.PersistentVolumeReclaimPolicy, pv.Spec.MountOptions, pv.Spec.VolumeMode)
		}
	})
	t.Run("retain", func(t *testing.T) {
		f := newFixture(t)
		f.create(fastClass("Retain"), pvcManifest(", storageClassName: fast"))
		if pv := f.checkProvisioned("data", "fast", "example.com/fast"); pv.Spec.PersistentVolumeReclaimPolicy != corev1.PersistentVolumeReclaimRetain {
			t.Errorf("reclaim policy %q, want Retain", pv.Spec.PersistentVolumeReclaimPolicy)
		}
	})
	t.Run("no StorageClasses", func(t *testing.T) {
		f := newFixture(t)
		f.create(pvcManifest(""))
		f.checkProvisioned("data", "", simulatedProvisioner)
	})
	t.Run("wait for first consumer", func(t *testing.T) {
		f := newFixture(t)
		f.create(wffcClass, pvcManifest(", storageClassName: local"))
		if c := f.claim("data"); c.Spec.VolumeName != "" || len(f.volumeNames()) != 0 {
			t.Fatalf("waiting claim: volumeName %q, volumes %v; want none", c.Spec.VolumeName, f.volumeNames())
		}
		f.clock.Step(time.Minute)
		f.create(workload("Deployment", references[1].spec))
		f.checkProvisioned("data", "local", "example.com/local")
	})
	t.Run("statefulset claim templates", func(t *testing.T) {
		f := newFixture(t)
		f.create(fastClass(""), claimSet(2, "", ", storageClassName: fast"))
		f.checkProvisioned("data-db-0", "fast", "example.com/fast")
		f.checkProvisioned("data-db-1", "fast", "example.com/fast")
	})
	t.Run("deterministic", func(t *testing.T) {
		a, b := newFixture(t), newFixture(t)
		a.create(pvcManifest(""))
		b.create(pvcManifest(""))
		if x, y := a.claim("data").Spec.VolumeName, b.claim("data").Spec.VolumeName; x != y || x == "" {
			t.Errorf("volume names %q and %q, want the same", x, y)
		}
	})
}

// volumeNames are the names of the cluster's volumes.
func (f *fixture) volumeNames() []string {
	f.t.Helper()
	list := &corev1.PersistentVolumeList{}
	if err := f.c.List(context.Background(), list); err != nil {
		f.t.Fatal(err)
	}
	var names []string
	for _, pv := range list.Items {
		names = append(names, pv.Name)
	}
	return names
}

// staticVolume is PersistentVolume name of 1Gi, ReadWriteOnce, no class,
// with extra in its spec.
func staticVolume(name, extra string) string {
	return "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: " + name + "}\n" +
		"spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], storageClassName: '', hostPath: {path: /data}" + extra + "}\n"
}

// TestPreBoundClaim: a claim that names its volume binds to it once it
// exists and provisions none; while it does not exist the claim stays
// Pending (the PV controller's syncUnboundClaim). The claim then gets
// bind-completed but not bound-by-controller, the volume its claimRef and
// bound-by-controller.
func TestPreBoundClaim(t *testing.T) {
	f := newFixture(t)
	f.create(pvcManifest(", storageClassName: '', volumeName: mine"))
	if got := f.claimPhase("data"); got != "Pending" {
		t.Fatalf("claim of a missing volume: phase %q, want Pending", got)
	}
	if names := f.volumeNames(); len(names) != 0 {
		t.Fatalf("volumes %v, want none provisioned", names)
	}
	f.clock.Step(time.Minute)
	f.create(staticVolume("mine", ""))
	c := f.claim("data")
	if c.Status.Phase != corev1.ClaimBound || c.Spec.VolumeName != "mine" || c.Annotations["pv.kubernetes.io/bind-completed"] != "yes" ||
		c.Annotations["pv.kubernetes.io/bound-by-controller"] != "" {
		t.Errorf("claim: phase %q volumeName %q annotations %v; want Bound, mine, bind-completed only", c.Status.Phase, c.Spec.VolumeName, c.Annotations)
	}
	pv := f.volume("mine")
	if pv.Status.Phase != corev1.VolumeBound || pv.Spec.ClaimRef == nil || pv.Spec.ClaimRef.UID != c.UID ||
		pv.Annotations["pv.kubernetes.io/bound-by-controller"] != "yes" {
		t.Errorf("volume: phase %q claimRef %+v annotations %v; want Bound to the claim, bound-by-controller", pv.Status.Phase, pv.Spec.ClaimRef, pv.Annotations)
	}
	if names := f.volumeNames(); len(names) != 1 {
		t.Errorf("volumes %v, want only mine", names)
	}
}

// TestClaimBindsExistingVolume: an Available volume that fits the claim
// (class, access modes, capacity) is bound rather than a new one
// provisioned; one that does not fit is left alone.
func TestClaimBindsExistingVolume(t *testing.T) {
	f := newFixture(t)
	f.create(staticVolume("small", ", capacity: {storage: 512Mi}"), staticVolume("fits", ""))
	if pv := f.volume("fits"); pv.Status.Phase != corev1.VolumeAvailable {
		t.Fatalf("free volume: phase %q, want Available", pv.Status.Phase)
	}
	f.create(pvcManifest(", storageClassName: ''"))
	if c := f.claim("data"); c.Spec.VolumeName != "fits" || c.Status.Phase != corev1.ClaimBound {
		t.Errorf("claim: volumeName %q phase %q, want fits, Bound", c.Spec.VolumeName, c.Status.Phase)
	}
	if pv := f.volume("small"); pv.Spec.ClaimRef != nil || pv.Status.Phase != corev1.VolumeAvailable {
		t.Errorf("small volume: claimRef %+v phase %q, want free, Available", pv.Spec.ClaimRef, pv.Status.Phase)
	}
}

// TestReleasedVolume: when the claim goes, its volume is deleted with
// reclaim policy Delete and Released with Retain, also when the claim was
// deleted with propagation Orphan (the volume is the PV controller's, not
// the garbage collector's).
func TestReleasedVolume(t *testing.T) {
	for _, tc := range []struct {
		policy, want string
		orphan       bool
	}{{"", "", false}, {"Delete", "", false}, {"Retain", "Released", false}, {"Delete", "", true}, {"Retain", "Released", true}} {
		t.Run(fmt.Sprintf("policy %s orphan %v", tc.policy, tc.orphan), func(t *testing.T) {
			f := newFixture(t)
			f.create(fastClass(tc.policy), pvcManifest(", storageClassName: fast"))
			name := f.claim("data").Spec.VolumeName
			var opts []client.DeleteOption
			if tc.orphan {
				opts = append(opts, client.PropagationPolicy(metav1.DeletePropagationOrphan))
			}
			if err := f.c.Delete(context.Background(), f.claim("data"), opts...); err != nil {
				t.Fatal(err)
			}
			f.create("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: next-step, namespace: default}\n")
			pv := f.volume(name)
			switch {
			case tc.want == "" && pv != nil:
				t.Errorf("volume %s: phase %q, want deleted", name, pv.Status.Phase)
			case tc.want != "" && (pv == nil || string(pv.Status.Phase) != tc.want):
				t.Errorf("volume %s: %+v, want phase %s", name, pv, tc.want)
			}
		})
	}
}

// boundClaimWrites are writes of a bound claim with a manifest that does
// not carry its volumeName, as deployers send them: Landscaper's manifest
// applier (updateStrategy update) sends the manifest as written and is
// refused; helm's three-way strategic merge patch and a server-side apply
// leave volumeName alone. The real-cluster test compares the answers.
var boundClaimWrites = []struct {
	name, method, manifest string
	refused                bool
}{
	{"update with the manifest", "update", pvcManifest(""), true},
	{"json merge patch from the live claim (updateStrategy patch)", "patch-from-live", pvcManifest(""), true},
	{"helm strategic merge patch", "strategic", `{"metadata":{"labels":{"release":"r2"}}}`, false},
	{"server-side apply", "apply", pvcManifest(""), false},
}

// writeBoundClaim writes claim default/data (or ns/data) of cl with method.
func writeBoundClaim(t *testing.T, cl client.Client, ns, method, manifest string) error {
	t.Helper()
	ctx := context.Background()
	switch method {
	case "update":
		u := obj(t, manifest)
		u.SetNamespace(ns)
		return updateWhole(t, cl, "bound claim", u)
	case "patch-from-live":
		live := obj(t, manifest)
		live.SetNamespace(ns)
		if err := cl.Get(ctx, client.ObjectKeyFromObject(live), live); err != nil {
			t.Fatal(err)
		}
		u := obj(t, manifest)
		u.SetNamespace(ns)
		return cl.Patch(ctx, u, client.MergeFrom(live))
	case "strategic":
		u := obj(t, pvcManifest(""))
		u.SetNamespace(ns)
		return cl.Patch(ctx, u, client.RawPatch(types.StrategicMergePatchType, []byte(manifest)))
	case "apply":
		u := obj(t, manifest)
		u.SetNamespace(ns)
		return cl.Patch(ctx, u, client.Apply, client.FieldOwner("landscaper"), client.ForceOwnership)
	}
	t.Fatalf("unknown method %q", method)
	return nil
}

// TestBoundClaimWrites: once bound, a claim refuses an update that drops
// its volumeName, with kube-apiserver's words; helm's patch and a
// server-side apply go through and keep the volume.
func TestBoundClaimWrites(t *testing.T) {
	for _, w := range boundClaimWrites {
		t.Run(w.name, func(t *testing.T) {
			f := newFixture(t)
			f.create(pvcManifest(""))
			volume := f.claim("data").Spec.VolumeName
			err := writeBoundClaim(t, f.c, "default", w.method, w.manifest)
			if !w.refused {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got := f.claim("data").Spec.VolumeName; got != volume {
					t.Errorf("volumeName %q after the write, want %q", got, volume)
				}
				return
			}
			want := `PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims`
			if !apierrors.IsInvalid(err) || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), `- "VolumeName": "`+volume+`",`) {
				t.Errorf("error %v, want Invalid %q with the diff of VolumeName", err, want)
			}
		})
	}
}

// TestExpandedClaimGrowsVolume: a bound claim of a class that allows
// expansion whose request grows gives its volume the new capacity.
func TestExpandedClaimGrowsVolume(t *testing.T) {
	f := newFixture(t)
	f.create(fastClass("")+"allowVolumeExpansion: true\n", pvcManifest(", storageClassName: fast"))
	c := f.claim("data")
	c.Spec.Resources.Requests[corev1.ResourceStorage] = resource.MustParse("2Gi")
	if err := f.c.Update(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	pv := f.volume(c.Spec.VolumeName)
	got := pv.Spec.Capacity[corev1.ResourceStorage]
	raw, _ := json.Marshal(f.claim("data").Status)
	if got.String() != "2Gi" {
		t.Errorf("volume capacity %s, want 2Gi (claim status %s)", got.String(), raw)
	}
}

// TestRewrittenClaimKeepsBinding: a bound claim written again with a
// manifest that names its volume is accepted; the write drops the
// annotations, and the PV controller, which then takes the claim as not
// bound, binds it again to the same volume: bind-completed is back.
func TestRewrittenClaimKeepsBinding(t *testing.T) {
	f := newFixture(t)
	f.create(pvcManifest(""))
	volume := f.claim("data").Spec.VolumeName
	if err := writeBoundClaim(t, f.c, "default", "update", pvcManifest(", volumeName: "+volume)); err != nil {
		t.Fatalf("update with volumeName: %v", err)
	}
	c := f.claim("data")
	if c.Spec.VolumeName != volume || c.Status.Phase != corev1.ClaimBound || c.Annotations["pv.kubernetes.io/bind-completed"] != "yes" {
		t.Errorf("claim: volumeName %q phase %q annotations %v; want %s, Bound, bind-completed", c.Spec.VolumeName, c.Status.Phase, c.Annotations, volume)
	}
	if names := f.volumeNames(); len(names) != 1 || names[0] != volume {
		t.Errorf("volumes %v, want only %s", names, volume)
	}
}
