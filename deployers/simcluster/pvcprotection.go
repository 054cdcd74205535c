package simcluster

import (
	"context"
	"fmt"
	"slices"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// pvcProtectionFinalizer holds a deleted PersistentVolumeClaim while pods
// use it. kube-apiserver's StorageObjectInUseProtection admission puts it
// on every claim; kube-controller-manager's pvc-protection controller
// (pkg/controller/volume/pvcprotection) removes it from a deleted claim
// once no pod that is not shut down uses it. A simulated cluster does not
// add it, but a chart may write it (grafana's persistence.finalizers), and
// then the claim would stay Terminating for ever.
const pvcProtectionFinalizer = "kubernetes.io/pvc-protection"

// releaseClaims removes pvcProtectionFinalizer from the deleted claims in
// namespace ns that no workload uses any more, as the pvc-protection
// controller does. A simulated cluster keeps no pods of its workloads: a
// workload that makes pods and is not being deleted, a Job that has not
// completed, or a Pod that has not shut down counts as a user. The caller
// holds the lock.
func (c *Cluster) releaseClaims(ctx context.Context, ns string) error {
	if ns == "" {
		return nil
	}
	claims := &corev1.PersistentVolumeClaimList{}
	if err := c.inner.List(ctx, claims, client.InNamespace(ns)); err != nil {
		return fmt.Errorf("simulated cluster %s: list claims in %s: %w", c.key, ns, err)
	}
	for i := range claims.Items {
		pvc := &claims.Items[i]
		if pvc.DeletionTimestamp == nil || !slices.Contains(pvc.Finalizers, pvcProtectionFinalizer) {
			continue
		}
		used, err := c.claimInUse(ctx, ns, pvc.Name)
		if err != nil {
			return err
		}
		if used {
			continue
		}
		pvc.Finalizers = slices.DeleteFunc(pvc.Finalizers, func(f string) bool { return f == pvcProtectionFinalizer })
		if err := c.inner.Update(ctx, pvc); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("simulated cluster %s: remove finalizer %s of claim %s/%s: %w", c.key, pvcProtectionFinalizer, ns, pvc.Name, err)
		}
	}
	return nil
}

// claimInUse reports whether a workload in ns makes pods that use the claim
// name (see releaseClaims).
func (c *Cluster) claimInUse(ctx context.Context, ns, name string) (bool, error) {
	return c.anyClaimConsumer(ctx, ns, name, func(o client.Object, _ *corev1.PodSpec) (bool, error) {
		return o.GetDeletionTimestamp() == nil && !shutDown(o), nil
	})
}

// shutDown reports whether o is a Pod that has ended or a Job that
// completed: its pods no longer hold a claim.
func shutDown(o client.Object) bool {
	switch v := o.(type) {
	case *corev1.Pod:
		return v.Status.Phase == corev1.PodSucceeded || v.Status.Phase == corev1.PodFailed
	case *batchv1.Job:
		return jobComplete(v)
	}
	return false
}
