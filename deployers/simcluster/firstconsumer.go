package simcluster

import (
	"context"
	"fmt"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Claims of a StorageClass with volumeBindingMode WaitForFirstConsumer are
// bound only once the pods of a workload that uses them are scheduled, as
// the scheduler binds them (see awaitConsumer).

// bindsOnFirstConsumer reports whether pvc's StorageClass exists and has
// volumeBindingMode WaitForFirstConsumer, as the scheduler's
// IsDelayBindingMode (component-helpers storage/volume) decides: a claim
// of no class or of a class that does not exist is of immediate binding
// (the latter stays Pending all the same: missingClass).
func (c *Cluster) bindsOnFirstConsumer(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (bool, error) {
	class := claimClass(pvc)
	if class == "" {
		return false, nil
	}
	sc := &storagev1.StorageClass{}
	ok, err := c.exists(ctx, sc, "", class)
	if err != nil || !ok {
		return false, err
	}
	return sc.VolumeBindingMode != nil && *sc.VolumeBindingMode == storagev1.VolumeBindingWaitForFirstConsumer, nil
}

// classExists reports whether StorageClass name exists.
func (c *Cluster) classExists(ctx context.Context, name string) (bool, error) {
	return c.exists(ctx, &storagev1.StorageClass{}, "", name)
}

// missingClass reports whether pvc, not bound and with no volume, names a
// StorageClass that does not exist on a cluster that has StorageClasses:
// the PersistentVolume controller finds no volume for it and cannot
// provision one (event ProvisioningFailed, `storageclass.storage.k8s.io
// "NAME" not found`), so it stays Pending until the class is created. A
// cluster without any StorageClass (a simulated cluster's default) stands
// for a cluster whose storage lscli does not model, where a claim of no
// class binds too: there the user's cluster is taken to have the classes
// the charts name, and the claim binds.
func (c *Cluster) missingClass(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (bool, error) {
	class := claimClass(pvc)
	if class == "" || pvc.Status.Phase == corev1.ClaimBound || pvc.Spec.VolumeName != "" {
		return false, nil
	}
	if ok, err := c.classExists(ctx, class); ok || err != nil {
		return false, err
	}
	classes := &storagev1.StorageClassList{}
	if err := c.inner.List(ctx, classes); err != nil {
		return false, fmt.Errorf("simulated cluster %s: list StorageClasses: %w", c.key, err)
	}
	return len(classes.Items) > 0, nil
}

// awaitConsumer is the fake PersistentVolumeClaim controller's look, before
// it binds a claim, at how the claim binds: one of a StorageClass with
// volumeBindingMode WaitForFirstConsumer (and no volumeName) stays Pending,
// remembered as waiting, until the pods of a workload in its namespace
// that uses it are scheduled (hasScheduledConsumer), as the scheduler
// then asks for its volume (the PV controller only records the event
// WaitForFirstConsumer before). It returns true while the claim waits.
func (c *Cluster) awaitConsumer(ctx context.Context, ref objectRef, obj client.Object) (bool, error) {
	pvc, ok := obj.(*corev1.PersistentVolumeClaim)
	if !ok {
		return false, nil
	}
	if noClass, err := c.missingClass(ctx, pvc); err != nil || noClass {
		if noClass {
			c.waiting[ref] = struct{}{}
		}
		return noClass, err
	}
	if noVolume, err := c.volumeMissing(ctx, pvc); err != nil || noVolume { // volumes.go
		if noVolume {
			c.waiting[ref] = struct{}{}
		}
		return noVolume, err
	}
	wffc := false
	if pvc.Status.Phase != corev1.ClaimBound && pvc.Spec.VolumeName == "" {
		var err error
		if wffc, err = c.bindsOnFirstConsumer(ctx, pvc); err != nil {
			return false, err
		}
	}
	if wffc {
		used, err := c.hasScheduledConsumer(ctx, pvc.Namespace, pvc.Name)
		if err != nil {
			return false, err
		}
		wffc = !used
	}
	if !wffc {
		delete(c.waiting, ref)
		return false, nil
	}
	c.waiting[ref] = struct{}{}
	return true, nil
}

// consumerLists are the lists of the kinds whose pods the fake controllers
// run, to find the consumers of a claim.
func consumerLists() []client.ObjectList {
	return []client.ObjectList{&appsv1.DeploymentList{}, &appsv1.StatefulSetList{}, &appsv1.DaemonSetList{},
		&appsv1.ReplicaSetList{}, &corev1.ReplicationControllerList{}, &batchv1.JobList{}, &corev1.PodList{}}
}

// hasScheduledConsumer reports whether a workload in namespace ns creates
// pods that use the claim name and that the scheduler places: their
// ServiceAccount exists, their claims exist and those of immediate binding
// are Bound (findMissing finds nothing or only what the node's kubelet
// needs, or a claim that binds on its first consumer).
func (c *Cluster) hasScheduledConsumer(ctx context.Context, ns, name string) (bool, error) {
	return c.anyClaimConsumer(ctx, ns, name, func(_ client.Object, spec *corev1.PodSpec) (bool, error) {
		m, err := c.findMissing(ctx, ns, spec)
		return err == nil && (m == nil || m.stall >= stallBinding), err
	})
}

// anyClaimConsumer reports whether ok holds for a workload in namespace ns
// (of consumerLists' kinds) whose pods use the claim name; spec is their
// pod spec. It stops at the first error.
func (c *Cluster) anyClaimConsumer(ctx context.Context, ns, name string, ok func(o client.Object, spec *corev1.PodSpec) (bool, error)) (bool, error) {
	for _, list := range consumerLists() {
		if err := c.inner.List(ctx, list, client.InNamespace(ns)); err != nil {
			return false, fmt.Errorf("simulated cluster %s: list %T: %w", c.key, list, err)
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return false, fmt.Errorf("simulated cluster %s: %w", c.key, err)
		}
		for _, it := range items {
			o, isObj := it.(client.Object)
			if !isObj {
				continue
			}
			if _, makesPods := podSpecOf(o); !makesPods {
				continue
			}
			for _, spec := range podSpecs(o) { // a StatefulSet's ordinals name their claims
				if !usesClaim(spec, name) {
					continue
				}
				if yes, err := ok(o, spec); err != nil || yes {
					return yes, err
				}
			}
		}
	}
	return false, nil
}

// usesClaim reports whether a pod spec has a volume of the claim name.
func usesClaim(s *corev1.PodSpec, name string) bool {
	for _, v := range s.Volumes {
		if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == name {
			return true
		}
	}
	return false
}

// storageClassGroupKind is the kind whose writes let waiting claims bind.
var storageClassGroupKind = schema.GroupKind{Group: "storage.k8s.io", Kind: "StorageClass"}

// classWritten lets the fake claim controller look again, after a write of
// a StorageClass (or of a PersistentVolume, volumeWritten), at the claims
// that wait in any namespace (missingClass, volumeMissing, awaitConsumer),
// in a fixed order, and lets the workloads waiting for
// those it binds go on (recheck), as the PersistentVolume controller
// provisions a claim at its next resync once its class exists.
func (c *Cluster) classWritten(ctx context.Context) error {
	var refs []objectRef
	for ref := range c.waiting {
		if ref.gvk == pvcGVK {
			refs = append(refs, ref)
		}
	}
	sort.Slice(refs, func(i, j int) bool { return refKey(refs[i]) < refKey(refs[j]) })
	for _, ref := range refs {
		if c.isBound(ctx, ref) {
			continue
		}
		if err := c.control(ctx, ref); err != nil {
			return err
		}
		if c.isBound(ctx, ref) {
			if err := c.recheck(ctx, ref.gvk, ref.namespace, ref.name); err != nil {
				return err
			}
		}
	}
	return nil
}
