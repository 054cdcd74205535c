package simcluster

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ClaimPending says why PersistentVolumeClaim ns/name on the simulated
// cluster of target stays Pending, in the words of the PersistentVolume
// controller's and the scheduler's events (claimPending: its StorageClass
// does not exist, it waits for its first consumer, a rule holds it), and
// the claim's StorageClass. why is "" when the claim is not there, is not
// Pending, or why is not known. A readiness check that waits for a claim
// to be Bound times out on such a claim, also on a real cluster.
func (cs *Clusters) ClaimPending(ctx context.Context, target *lsv1alpha1.Target, ns, name string) (why, class string, err error) {
	c, err := cs.ClusterFor(ctx, target)
	if err != nil {
		return "", "", err
	}
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	pvc := &corev1.PersistentVolumeClaim{}
	if err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, pvc); err != nil {
		if apierrors.IsNotFound(err) {
			return "", "", nil
		}
		return "", "", fmt.Errorf("simulated cluster %s: get claim %s/%s: %w", c.key, ns, name, err)
	}
	if pvc.Status.Phase != corev1.ClaimPending {
		return "", "", nil
	}
	why, err = c.claimPending(ctx, pvc)
	return why, claimClass(pvc), err
}
