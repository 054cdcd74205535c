package simcluster

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// bindOnRealCluster binds claim ns/data of the real test cluster, which runs
// no PersistentVolume controller, with the writes the simulated cluster's
// controller made for sim (its claim default/data): the volume it
// provisioned, for the real claim's uid, created (the real API server
// validates it), then the claim's volumeName and annotations, then its
// status Bound.
func bindOnRealCluster(t *testing.T, cl client.Client, ns string, sim *fixture) {
	t.Helper()
	ctx := context.Background()
	claim := &corev1.PersistentVolumeClaim{}
	if err := cl.Get(ctx, client.ObjectKey{Namespace: ns, Name: "data"}, claim); err != nil {
		t.Fatal(err)
	}
	simClaim := sim.claim("data")
	simVolume := sim.volume(simClaim.Spec.VolumeName)
	pv := &corev1.PersistentVolume{Spec: *simVolume.Spec.DeepCopy()}
	pv.Name, pv.Annotations = "pvc-"+string(claim.UID), simVolume.Annotations
	pv.Spec.CSI.VolumeHandle = pv.Name
	pv.Spec.ClaimRef.Namespace, pv.Spec.ClaimRef.UID, pv.Spec.ClaimRef.ResourceVersion = ns, claim.UID, claim.ResourceVersion
	if err := cl.Create(ctx, pv); err != nil {
		t.Fatalf("real cluster refuses the simulated volume: %v", err)
	}
	t.Cleanup(func() { _ = cl.Delete(ctx, pv) })
	claim.Spec.VolumeName, claim.Annotations = pv.Name, simClaim.Annotations
	if err := cl.Update(ctx, claim); err != nil {
		t.Fatalf("real cluster refuses the simulated binding: %v", err)
	}
	claim.Status = *simClaim.Status.DeepCopy()
	if err := cl.Status().Update(ctx, claim); err != nil {
		t.Fatalf("real cluster refuses the simulated claim status: %v", err)
	}
}

// TestRealClusterBoundClaimWrites replays boundClaimWrites on a claim bound
// as the simulated cluster binds it, on a real kube-apiserver and on a
// simulated cluster, and compares the answers.
func TestRealClusterBoundClaimWrites(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	for _, w := range boundClaimWrites {
		t.Run(w.name, func(t *testing.T) {
			f := newFixture(t)
			f.create(pvcManifest(""))
			ns := tc.Namespace(t)
			real := obj(t, pvcManifest(""))
			real.SetNamespace(ns)
			if err := tc.Client.Create(ctx, real); err != nil {
				t.Fatal(err)
			}
			bindOnRealCluster(t, tc.Client, ns, f)
			simErr := writeBoundClaim(t, f.c, "default", w.method, w.manifest)
			realErr := writeBoundClaim(t, tc.Client, ns, w.method, w.manifest)
			sim, got := uids.ReplaceAllString(outcome(simErr), "UID"), uids.ReplaceAllString(outcome(realErr), "UID")
			if sim != got {
				t.Errorf("simulated: %s\nreal:      %s", sim, got)
			} else {
				t.Logf("%s", got)
			}
			if w.refused != (realErr != nil) {
				t.Errorf("real cluster: refused %v, want %v", realErr != nil, w.refused)
			}
			if !w.refused {
				c := &corev1.PersistentVolumeClaim{}
				if err := tc.Client.Get(ctx, types.NamespacedName{Namespace: ns, Name: "data"}, c); err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(c.Spec.VolumeName, "pvc-") {
					t.Errorf("real cluster: volumeName %q after the write, want kept", c.Spec.VolumeName)
				}
			}
		})
	}
}
