package action

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/fakecluster"
)

// heldSims is a SimulatedClusters whose objects are held by finalizers as
// held says; asked records the objects it was asked about.
type heldSims struct {
	unservedSims
	held  []simcluster.HeldObject
	asked []corev1.ObjectReference
}

func (s *heldSims) HeldByFinalizers(_ context.Context, _ *lsv1alpha1.Target, refs []corev1.ObjectReference) ([]simcluster.HeldObject, error) {
	s.asked = refs
	return s.held, nil
}

// TestFinalizerDeadEnd: a manifest item whose deletion timed out while an
// operator's finalizer holds one of its objects is told which object and
// finalizer, that retries wait the same way, and the way out; an item
// still Failed (not deleting), one whose deletion failed otherwise, a helm
// item and one whose objects nothing holds get none.
func TestFinalizerDeadEnd(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	if err := c.Create(ctx, &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "laas", Name: "cluster"}}); err != nil {
		t.Fatal(err)
	}
	const timedOut = `failed deleting managed resources: timeout during processing deletiongroup: Op: StandardTimeoutChecker.TimeoutExceeded - Reason: ProgressingTimeout - Message: timeout at: "deployer: delete resources"`
	const status = `{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderStatus","managedResources":[` +
		`{"policy":"manage","resource":{"apiVersion":"ceph.rook.io/v1","kind":"CephCluster","namespace":"rook-ceph","name":"rook-ceph"}}]}`
	held := []simcluster.HeldObject{{Kind: "CephCluster", Namespace: "rook-ceph", Name: "rook-ceph", Finalizers: []string{"cephcluster.ceph.rook.io"}}}
	item := func(phase lsv1alpha1.DeployItemPhase, msg, typ string) *lsv1alpha1.DeployItem {
		di := failedItem(phase, msg)
		di.Spec.Type = lsv1alpha1.DeployItemType(typ)
		di.Spec.Target = &lsv1alpha1.ObjectReference{Namespace: "laas", Name: "cluster"}
		di.Status.ProviderStatus = &runtime.RawExtension{Raw: []byte(status)}
		return di
	}
	const manifestType = "landscaper.gardener.cloud/kubernetes-manifest"
	deleteFailed := lsv1alpha1.DeployItemPhases.DeleteFailed
	for _, tc := range []struct {
		name  string
		di    *lsv1alpha1.DeployItem
		held  []simcluster.HeldObject
		wants []string
	}{
		{"held by an operator's finalizer", item(deleteFailed, timedOut, manifestType), held, []string{
			"DeployItem laas/shoot: its deletion timed out waiting for CephCluster rook-ceph/rook-ceph, which is marked for deletion and waits for its finalizer cephcluster.ceph.rook.io.",
			"every retry waits the same way",
			"'lscli delete ceph --without-uninstall' and then 'lscli trigger ceph'"}},
		{"two held", item(deleteFailed, timedOut, manifestType), append(held, simcluster.HeldObject{Kind: "Namespace", Name: "x", Finalizers: []string{"a", "b"}}),
			[]string{"CephCluster rook-ceph/rook-ceph (and 1 more of its objects, held alike)"}},
		{"not deleting", item(lsv1alpha1.DeployItemPhases.Failed, timedOut, manifestType), held, nil},
		{"other deletion error", item(deleteFailed, "unable to delete: forbidden", manifestType), held, nil},
		{"helm item", item(deleteFailed, timedOut, "landscaper.gardener.cloud/helm"), held, nil},
		{"nothing held", item(deleteFailed, timedOut, manifestType), nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sims := &heldSims{held: tc.held}
			got, err := finalizerDeadEnd(ctx, c, sims, tc.di, "ceph")
			if err != nil {
				t.Fatal(err)
			}
			if tc.wants == nil && got != "" {
				t.Fatalf("hint = %q, want none", got)
			}
			for _, w := range tc.wants {
				if !strings.Contains(got, w) {
					t.Errorf("hint = %q, want it to contain %q", got, w)
				}
			}
			if tc.wants != nil && (len(sims.asked) != 1 || sims.asked[0].Kind != "CephCluster" || sims.asked[0].APIVersion != "ceph.rook.io/v1") {
				t.Errorf("asked about %+v, want the item's CephCluster", sims.asked)
			}
		})
	}
}

// TestStandaloneFinalizerDeadEnd: a stand-alone DeployItem whose deletion
// an operator's finalizer holds gets the hint, with the command that
// deletes it without uninstalling.
func TestStandaloneFinalizerDeadEnd(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	if err := c.Create(ctx, &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "laas", Name: "cluster"}}); err != nil {
		t.Fatal(err)
	}
	di := failedItem(lsv1alpha1.DeployItemPhases.DeleteFailed, `timeout at: "deployer: delete resources"`)
	di.Spec.Type = "landscaper.gardener.cloud/kubernetes-manifest"
	di.Spec.Target = &lsv1alpha1.ObjectReference{Namespace: "laas", Name: "cluster"}
	di.Status.ProviderStatus = &runtime.RawExtension{Raw: []byte(`{"managedResources":[{"resource":{"apiVersion":"v1","kind":"ConfigMap","namespace":"default","name":"held"}}]}`)}
	sims := &heldSims{held: []simcluster.HeldObject{{Kind: "ConfigMap", Namespace: "default", Name: "held", Finalizers: []string{"example.com/hold"}}}}
	got, err := standaloneDeadEnds(ctx, c, sims, di)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.Contains(got[0], "waiting for ConfigMap default/held") ||
		!strings.Contains(got[0], "'lscli delete deployitem shoot --without-uninstall'") {
		t.Errorf("hints = %q, want the finalizer's, for deployitem shoot", got)
	}
}
