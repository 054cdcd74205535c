package simcluster

import (
	"context"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	storagehelpers "k8s.io/component-helpers/storage/volume"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The PersistentVolumes behind claims, as kube-controller-manager's
// PersistentVolume controller (pkg/controller/volume/persistentvolume,
// pv_controller.go syncUnboundClaim, bind, provisionClaimOperation,
// syncVolume, reclaimVolume) and a dynamic provisioner handle them; when
// the fake claim controller binds a claim it first finds its volume:
//
//   - a claim that names spec.volumeName binds to that volume when it
//     exists and is free or pre-bound to the claim; while it does not
//     exist (or another claim holds it) the claim stays Pending, and no
//     volume is provisioned for it;
//   - else an existing volume the PV controller would choose
//     (FindMatchingVolume of component-helpers: pre-bound to the claim, or
//     the smallest Available one of the claim's class, access and volume
//     mode, capacity and selector);
//   - else a volume provisioned for it, named pvc-UID after the claim's
//     uid, with the claim's access modes, volume mode and request as
//     capacity, the class's reclaimPolicy (Delete when unset) and mount
//     options, a CSI source of the class's provisioner, and the claim as
//     claimRef. A claim whose class does not exist (on a cluster without
//     StorageClasses, see missingClass) gets one of simulatedProvisioner.
//
// Binding sets the volume's claimRef (bound-by-controller when it was not
// pre-bound) and phase Bound, then the claim's spec.volumeName, with the
// annotations bind-completed, bound-by-controller (when the controller
// chose the volume) and, for a provisioned one, the storage-provisioner
// ones. The claim's spec is then immutable but for its request: an update
// that does not carry volumeName is refused (immutableClaim), as a real
// cluster refuses it.
//
// A volume whose claim is gone (the garbage collector's next step learns
// of every deletion) is Released; with reclaimPolicy Delete it is deleted.
// Volumes get no finalizers (kubernetes.io/pv-protection is not simulated,
// as kubernetes.io/pvc-protection is not), and a claim does not become
// Lost when its volume is deleted.

// simulatedProvisioner provisions the volumes of claims whose class a
// simulated cluster without StorageClasses does not know.
const simulatedProvisioner = "simulated.lscli.io"

// pvGVK is the kind of a claim's volume.
var pvGVK = schema.GroupVersionKind{Version: "v1", Kind: "PersistentVolume"}

// bindVolume binds claim pvc, whose status the fake controller is about to
// set Bound, to its volume (see above) and returns the claim as stored
// then; ok is false when the claim has no volume to bind to (it stays
// Pending). A claim already bound to its volume is returned as it is.
func (c *Cluster) bindVolume(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (_ *corev1.PersistentVolumeClaim, ok bool, err error) {
	if pvc.Spec.VolumeName != "" && metav1.HasAnnotation(pvc.ObjectMeta, storagehelpers.AnnBindCompleted) {
		return pvc, true, c.growVolume(ctx, pvc)
	}
	pv, provisioner, err := c.volumeFor(ctx, pvc)
	if err != nil || pv == nil {
		return nil, false, err
	}
	bound, dirty, err := storagehelpers.GetBindVolumeToClaim(pv, pvc)
	if err != nil {
		return nil, false, fmt.Errorf("simulated cluster %s: bind claim %s/%s: %w", c.key, pvc.Namespace, pvc.Name, err)
	}
	if bound.ResourceVersion == "" {
		if err := c.inner.Create(ctx, bound, client.FieldOwner(controllerManager)); err != nil {
			return nil, false, fmt.Errorf("simulated cluster %s: provision volume %s for claim %s/%s: %w", c.key, bound.Name, pvc.Namespace, pvc.Name, err)
		}
	} else if dirty {
		if err := c.inner.Update(ctx, bound, client.FieldOwner(controllerManager)); err != nil {
			return nil, false, fmt.Errorf("simulated cluster %s: bind volume %s to claim %s/%s: %w", c.key, bound.Name, pvc.Namespace, pvc.Name, err)
		}
	}
	if err := c.setVolumePhase(ctx, bound, corev1.VolumeBound); err != nil {
		return nil, false, err
	}
	claim := pvc.DeepCopy()
	if claim.Spec.VolumeName != bound.Name {
		claim.Spec.VolumeName = bound.Name
		metav1.SetMetaDataAnnotation(&claim.ObjectMeta, storagehelpers.AnnBoundByController, "yes")
	}
	metav1.SetMetaDataAnnotation(&claim.ObjectMeta, storagehelpers.AnnBindCompleted, "yes")
	if provisioner != "" {
		metav1.SetMetaDataAnnotation(&claim.ObjectMeta, storagehelpers.AnnBetaStorageProvisioner, provisioner)
		metav1.SetMetaDataAnnotation(&claim.ObjectMeta, storagehelpers.AnnStorageProvisioner, provisioner)
	}
	if err := c.inner.Update(ctx, claim, client.FieldOwner(controllerManager)); err != nil {
		return nil, false, fmt.Errorf("simulated cluster %s: bind claim %s/%s to volume %s: %w", c.key, pvc.Namespace, pvc.Name, bound.Name, err)
	}
	return claim, true, nil
}

// volumeFor finds or provisions the volume of pvc (see above): the
// existing volume the PV controller would bind it to, else (when the claim
// names no volume) a new one, not yet stored, of provisioner. It returns
// nil when the claim has no volume to bind to.
func (c *Cluster) volumeFor(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (_ *corev1.PersistentVolume, provisioner string, err error) {
	if name := pvc.Spec.VolumeName; name != "" {
		pv := &corev1.PersistentVolume{}
		ok, err := c.exists(ctx, pv, "", name)
		if err != nil || !ok {
			return nil, "", err
		}
		if pv.Spec.ClaimRef != nil && !storagehelpers.IsVolumeBoundToClaim(pv, pvc) {
			return nil, "", nil // another claim's: Pending, FailedBinding
		}
		return pv, "", nil
	}
	volumes, err := c.volumes(ctx)
	if err != nil {
		return nil, "", err
	}
	pv, err := storagehelpers.FindMatchingVolume(pvc, volumes, nil, nil, false, true)
	if err != nil {
		return nil, "", fmt.Errorf("simulated cluster %s: find a volume for claim %s/%s: %w", c.key, pvc.Namespace, pvc.Name, err)
	}
	if pv != nil {
		return pv.DeepCopy(), "", nil
	}
	return c.provision(ctx, pvc)
}

// volumes are the cluster's PersistentVolumes, by name.
func (c *Cluster) volumes(ctx context.Context) ([]*corev1.PersistentVolume, error) {
	list := &corev1.PersistentVolumeList{}
	if err := c.inner.List(ctx, list); err != nil {
		return nil, fmt.Errorf("simulated cluster %s: list PersistentVolumes: %w", c.key, err)
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	out := make([]*corev1.PersistentVolume, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, nil
}

// provision returns the volume a dynamic provisioner makes for pvc, not
// yet stored, and the provisioner's name.
func (c *Cluster) provision(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (*corev1.PersistentVolume, string, error) {
	provisioner, policy := simulatedProvisioner, corev1.PersistentVolumeReclaimDelete
	var mountOptions []string
	if class := claimClass(pvc); class != "" {
		sc := &storagev1.StorageClass{}
		ok, err := c.exists(ctx, sc, "", class)
		if err != nil {
			return nil, "", err
		}
		if ok {
			provisioner, mountOptions = sc.Provisioner, sc.MountOptions
			if sc.ReclaimPolicy != nil {
				policy = *sc.ReclaimPolicy
			}
		}
	}
	name := "pvc-" + string(pvc.UID)
	mode := corev1.PersistentVolumeFilesystem
	if pvc.Spec.VolumeMode != nil {
		mode = *pvc.Spec.VolumeMode
	}
	pv := &corev1.PersistentVolume{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolume"},
		ObjectMeta: metav1.ObjectMeta{Name: name,
			Annotations: map[string]string{storagehelpers.AnnDynamicallyProvisioned: provisioner}},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:    corev1.ResourceList{corev1.ResourceStorage: pvc.Spec.Resources.Requests[corev1.ResourceStorage]},
			AccessModes: pvc.Spec.AccessModes,
			PersistentVolumeSource: corev1.PersistentVolumeSource{CSI: &corev1.CSIPersistentVolumeSource{
				Driver: provisioner, VolumeHandle: name}},
			ClaimRef: &corev1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1",
				Namespace: pvc.Namespace, Name: pvc.Name, UID: pvc.UID, ResourceVersion: pvc.ResourceVersion},
			PersistentVolumeReclaimPolicy: policy,
			StorageClassName:              claimClass(pvc),
			MountOptions:                  mountOptions,
			VolumeMode:                    &mode,
		},
	}
	return pv, provisioner, nil
}

// setVolumePhase writes phase into the status of the stored volume pv (and
// pv), unless it has it.
func (c *Cluster) setVolumePhase(ctx context.Context, pv *corev1.PersistentVolume, phase corev1.PersistentVolumePhase) error {
	if pv.Status.Phase == phase {
		return nil
	}
	pv.Status = corev1.PersistentVolumeStatus{Phase: phase}
	if err := c.inner.Status().Update(ctx, pv, client.FieldOwner(controllerManager)); err != nil {
		return fmt.Errorf("simulated cluster %s: set phase %s of volume %s: %w", c.key, phase, pv.Name, err)
	}
	return nil
}

// growVolume gives the volume of bound claim pvc the claim's request as
// capacity when the request grew (an expansion, which the claim's resize
// admission allowed), as the resize controller and the CSI resizer do.
func (c *Cluster) growVolume(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error {
	pv := &corev1.PersistentVolume{}
	ok, err := c.exists(ctx, pv, "", pvc.Spec.VolumeName)
	if err != nil || !ok {
		return err
	}
	want, have := pvc.Spec.Resources.Requests[corev1.ResourceStorage], pv.Spec.Capacity[corev1.ResourceStorage]
	if want.Cmp(have) <= 0 {
		return nil
	}
	pv.Spec.Capacity[corev1.ResourceStorage] = want
	if err := c.inner.Update(ctx, pv, client.FieldOwner(controllerManager)); err != nil {
		return fmt.Errorf("simulated cluster %s: expand volume %s: %w", c.key, pv.Name, err)
	}
	return nil
}

// volumeMissing reports whether pvc, not bound, names in spec.volumeName
// a volume it cannot bind to: one that does not exist or that another
// claim holds. The PV controller leaves such a claim Pending (and
// provisions nothing for it) until the volume comes.
func (c *Cluster) volumeMissing(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (bool, error) {
	if pvc.Spec.VolumeName == "" || pvc.Status.Phase == corev1.ClaimBound {
		return false, nil
	}
	pv, _, err := c.volumeFor(ctx, pvc)
	return pv == nil, err
}

// volumeWritten is the PV controller's look at volume name, just written:
// a volume without a claim, or pre-bound to one by name only, is
// Available; one whose claim is gone is released (reclaimVolumes). Then
// the claims that wait (for a volume, a class or a consumer) are looked at
// again (classWritten).
func (c *Cluster) volumeWritten(ctx context.Context, name string) error {
	pv := &corev1.PersistentVolume{}
	ok, err := c.exists(ctx, pv, "", name)
	if err != nil || !ok {
		return err
	}
	if ref := pv.Spec.ClaimRef; ref == nil || ref.UID == "" {
		if err := c.setVolumePhase(ctx, pv, corev1.VolumeAvailable); err != nil {
			return err
		}
	} else if pv.Status.Phase != corev1.VolumeBound {
		pvc := &corev1.PersistentVolumeClaim{}
		found, err := c.exists(ctx, pvc, ref.Namespace, ref.Name)
		if err != nil {
			return err
		}
		if !found || pvc.UID != ref.UID {
			if err := c.reclaim(ctx, pv); err != nil {
				return err
			}
		}
	}
	return c.classWritten(ctx)
}

// reclaimVolumes releases the volumes bound to the claim of uid, which is
// gone: phase Released, and with reclaimPolicy Delete the volume is
// deleted (pv_controller.go syncVolume, reclaimVolume). The caller holds
// the lock.
func (c *Cluster) reclaimVolumes(ctx context.Context, uid types.UID) error {
	volumes, err := c.volumes(ctx)
	if err != nil {
		return err
	}
	for _, pv := range volumes {
		if pv.Spec.ClaimRef != nil && pv.Spec.ClaimRef.UID == uid {
			if err := c.reclaim(ctx, pv); err != nil {
				return err
			}
		}
	}
	return nil
}

// reclaim releases volume pv, whose claim is gone, by its reclaim policy.
func (c *Cluster) reclaim(ctx context.Context, pv *corev1.PersistentVolume) error {
	if pv.Spec.PersistentVolumeReclaimPolicy == corev1.PersistentVolumeReclaimDelete {
		if err := c.inner.Delete(ctx, pv); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("simulated cluster %s: delete released volume %s: %w", c.key, pv.Name, err)
		}
		return nil
	}
	return c.setVolumePhase(ctx, pv, corev1.VolumeReleased)
}

// isVolumeKind reports whether gvk is PersistentVolume.
func isVolumeKind(gvk schema.GroupVersionKind) bool { return gvk.GroupKind() == pvGVK.GroupKind() }

// bindIncomplete reports whether obj is a claim the fake controller keeps
// Bound (fail is empty) whose binding lacks the annotation bind-completed
// (a write of its manifest dropped it): the PV controller takes such a
// claim as unbound (syncClaim) and binds it again, to the volume its
// volumeName names.
func bindIncomplete(obj client.Object, fail string) bool {
	pvc, ok := obj.(*corev1.PersistentVolumeClaim)
	return ok && fail == "" && pvc.Status.Phase == corev1.ClaimBound &&
		!metav1.HasAnnotation(pvc.ObjectMeta, storagehelpers.AnnBindCompleted)
}
