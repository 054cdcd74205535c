package action

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

// claimPendingSource says why a claim on a simulated cluster stays Pending
// (*simcluster.Clusters: ClaimPending).
type claimPendingSource interface {
	ClaimPending(ctx context.Context, target *lsv1alpha1.Target, ns, name string) (why, class string, err error)
}

// waitingForConsumer is the PersistentVolume controller's event message
// for a claim of a StorageClass with volumeBindingMode
// WaitForFirstConsumer that no scheduled pod uses yet.
const waitingForConsumer = "waiting for first consumer to be created before binding"

// claimPendingHint says, for a deploy item whose readiness check (a
// custom one: Landscaper's default check does not look at claims) timed
// out on a PersistentVolumeClaim of its target cluster that stays Pending,
// why it does, as the events of a real cluster would: its StorageClass
// binds on the first consumer and no scheduled pod uses the claim (local-
// path-provisioner's class local-path does so), or the class does not
// exist. Waiting in the item for the claim to be Bound cannot succeed
// when the pod that uses it comes with a later item. It is empty for other
// items, and when the simulated cluster does not know why.
func claimPendingHint(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, di *lsv1alpha1.DeployItem) (string, error) {
	le := di.Status.LastError
	if le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed || di.Spec.Target == nil {
		return "", nil
	}
	m := readinessObjectTimeout.FindStringSubmatch(le.Message)
	if m == nil || m[3] != "PersistentVolumeClaim" {
		return "", nil
	}
	for _, r := range secondaryReads(checkConfigOf(di)) {
		if r.check != "" && r.kind == m[3] && r.namespace == m[1] && r.name == m[2] {
			return "", nil // read from another Target's cluster
		}
	}
	src, ok := sims.(claimPendingSource)
	if !ok {
		return "", nil
	}
	target, err := targetOf(ctx, c, di)
	if target == nil || err != nil {
		return "", err
	}
	why, class, err := src.ClaimPending(ctx, target, m[1], m[2])
	if why == "" || err != nil {
		return "", err
	}
	on := fmt.Sprintf("DeployItem %s/%s: its readiness check timed out on PersistentVolumeClaim %s/%s, which stays Pending: %s",
		di.Namespace, di.Name, m[1], m[2], why)
	switch {
	case why == waitingForConsumer:
		return fmt.Sprintf("%s. Its StorageClass %s has volumeBindingMode WaitForFirstConsumer: the claim is bound, and "+
			"its volume provisioned, only when a pod that uses it is scheduled, on a real cluster too. Apply the pod or "+
			"workload that mounts the claim in the same item (an item that depends on this one waits for its readiness "+
			"and never comes), check the workload's readiness instead of the claim's, or use a StorageClass with "+
			"volumeBindingMode Immediate", on, class), nil
	case strings.HasPrefix(why, "storageclass.storage.k8s.io "):
		return fmt.Sprintf("%s. The PersistentVolume controller provisions no volume for a class that does not exist, on "+
			"a real cluster too (event ProvisioningFailed). Create StorageClass %s in this item or in one it depends "+
			"on, or name a class that exists (the class of a claim cannot change: delete the claim first)", on, class), nil
	}
	return on, nil
}
