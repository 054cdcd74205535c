package action

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	corev1 "k8s.io/api/core/v1"

	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/fakecluster"
)

// heldObjectsSource says which objects of a simulated cluster are marked
// for deletion and held by finalizers no simulated controller removes
// (*simcluster.Clusters: HeldByFinalizers).
type heldObjectsSource interface {
	HeldByFinalizers(ctx context.Context, target *lsv1alpha1.Target, refs []corev1.ObjectReference) ([]simcluster.HeldObject, error)
}

// finalizerDeadEnds are the finalizerDeadEnd hints of dis, whose deletion
// the user runs as root.
func finalizerDeadEnds(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, dis []lsv1alpha1.DeployItem,
	root string) ([]string, error) {
	var hints []string
	for i := range dis {
		h, err := finalizerDeadEnd(ctx, c, sims, &dis[i], root)
		if err != nil {
			return nil, err
		}
		if h != "" {
			hints = append(hints, h)
		}
	}
	return hints, nil
}

// finalizerDeadEnd says, for a manifest deploy item whose deletion timed
// out waiting for objects it deleted (Landscaper's deletion groups poll
// until they are gone, pkg/deployer/lib/resourcemanager deletiongroup.go)
// while finalizers of a controller that does not run on its simulated
// cluster hold one of them, which object and finalizers, and that every
// retry waits the same way: an operator's custom resource (Rook's
// CephCluster and its finalizer cephcluster.ceph.rook.io) seeded as the
// operator leaves it and deleted with updateStrategy merge, which keeps
// the finalizer. It is empty for other items, and for targets that are not
// simulated.
func finalizerDeadEnd(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, di *lsv1alpha1.DeployItem,
	root string) (string, error) {
	le := di.Status.LastError
	if le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.DeleteFailed || di.Spec.Target == nil ||
		di.Spec.Type != "landscaper.gardener.cloud/kubernetes-manifest" ||
		!strings.Contains(le.Message, fmt.Sprintf("timeout at: %q", deletion.Checkpoint)) {
		return "", nil
	}
	src, ok := sims.(heldObjectsSource)
	if !ok || di.Status.ProviderStatus == nil {
		return "", nil
	}
	var status manifestv1alpha2.ProviderStatus
	if err := json.Unmarshal(di.Status.ProviderStatus.Raw, &status); err != nil || len(status.ManagedResources) == 0 {
		return "", nil
	}
	refs := make([]corev1.ObjectReference, 0, len(status.ManagedResources))
	for _, mr := range status.ManagedResources {
		refs = append(refs, mr.Resource)
	}
	target, err := targetOf(ctx, c, di)
	if target == nil || err != nil {
		return "", err
	}
	held, err := src.HeldByFinalizers(ctx, target, refs)
	if len(held) == 0 || err != nil {
		return "", err
	}
	h := held[0]
	what := h.Kind + " " + h.Name
	if h.Namespace != "" {
		what = h.Kind + " " + h.Namespace + "/" + h.Name
	}
	finalizers := "its finalizer " + h.Finalizers[0]
	if len(h.Finalizers) > 1 {
		finalizers = "its finalizers " + strings.Join(h.Finalizers, ", ")
	}
	more := ""
	if len(held) > 1 {
		more = fmt.Sprintf(" (and %d more of its objects, held alike)", len(held)-1)
	}
	return fmt.Sprintf("DeployItem %s/%s: its deletion timed out waiting for %s%s, which is marked for deletion and waits for %s. "+
		"Only the controller that added a finalizer removes it, and none runs on a simulated cluster, so every retry "+
		"waits the same way. On a real cluster that controller removes it once it has cleaned up, if it still runs then "+
		"(deploy it in an item this one depends on: Landscaper deletes that item after this one). Leave the finalizer "+
		"out of the seed or the manifest that sets it, or %s delete the items without uninstalling (what they deployed "+
		"stays on the cluster)",
		di.Namespace, di.Name, what, more, finalizers, withoutUninstall(root)), nil
}
