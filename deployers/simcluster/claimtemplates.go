package simcluster

import (
	"context"
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A StatefulSet's spec.volumeClaimTemplates, as kube-controller-manager's
// StatefulSet controller handles them (pkg/controller/statefulset:
// stateful_set_utils.go getPersistentVolumeClaims, updateStorage,
// updateClaimOwnerRefForSetAndPod; stateful_pod_control.go
// createPersistentVolumeClaims; k8s.io/kubernetes is not a dependency of
// lscli): before it creates the pod of an ordinal it creates, from each
// template, the claim TEMPLATE-SET-ORDINAL in the set's namespace, with the
// template's labels and the set's matchLabels, unless a claim of that name
// exists (then that claim is the pod's, as it is: a reinstall finds the
// claims an uninstall left). The pod's volume of the template's name
// names the claim. With OrderedReady (the default) the pod of the next
// ordinal, and so its claims, comes only once the pod before is ready.
//
// persistentVolumeClaimRetentionPolicy: whenDeleted Delete makes the set
// the claims' controller (the garbage collector deletes them with it);
// Retain (the default) leaves them without owner. whenScaled Delete gives
// the claims of the ordinals a scale-down removes to their pods, which the
// garbage collector deletes with the pods; a simulated cluster keeps no
// pods, so it deletes those claims when it sees the set scaled down (from
// the replicas of its status to those of its spec).

// statefulSetGVK is the kind of the claims' owner.
var statefulSetGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}

// setOrdinals are the first ordinal of s's pods (spec.ordinals.start) and
// how many there are.
func setOrdinals(s *appsv1.StatefulSet) (start, n int32) {
	if s.Spec.Ordinals != nil {
		start = s.Spec.Ordinals.Start
	}
	return start, replicas(s.Spec.Replicas)
}

// templateClaimName is the name of the claim of template tpl for the pod of
// ordinal (getPersistentVolumeClaimName).
func templateClaimName(s *appsv1.StatefulSet, tpl *corev1.PersistentVolumeClaim, ordinal int32) string {
	return tpl.Name + "-" + s.Name + "-" + strconv.Itoa(int(ordinal))
}

// ordinalPodSpec is the pod spec of s's pod of ordinal, as far as the
// claims go: the template's, with a volume per claim template, of the
// template's name, naming the ordinal's claim, in place of a volume of that
// name (updateStorage; its volumes come in the order of the templates).
func ordinalPodSpec(s *appsv1.StatefulSet, ordinal int32) *corev1.PodSpec {
	spec := s.Spec.Template.Spec
	tpls := s.Spec.VolumeClaimTemplates
	if len(tpls) == 0 {
		return &spec
	}
	vols := make([]corev1.Volume, 0, len(tpls)+len(spec.Volumes))
	names := make(map[string]bool, len(tpls))
	for i := range tpls {
		names[tpls[i].Name] = true
		vols = append(vols, corev1.Volume{Name: tpls[i].Name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: templateClaimName(s, &tpls[i], ordinal)}}})
	}
	for _, v := range spec.Volumes {
		if !names[v.Name] {
			vols = append(vols, v)
		}
	}
	spec.Volumes = vols
	return &spec
}

// podsMissing is findMissing for the pods of workload obj (nil when it
// makes none). A StatefulSet with claim templates has a pod spec per
// ordinal: the first ordinal whose pod misses an object counts, and
// m.ready says how many pods are ready (with OrderedReady those before it,
// with Parallel every one that misses nothing).
func (c *Cluster) podsMissing(ctx context.Context, obj client.Object) (*missingRef, error) {
	spec, makesPods := podSpecOf(obj)
	if spec == nil || !makesPods {
		return nil, nil
	}
	if m, err := c.priorityClassRefusal(ctx, obj, spec); m != nil || err != nil { // priorityclass.go
		return m, err
	}
	if m, err := c.podSecurityRefusal(ctx, obj, spec); m != nil || err != nil { // podsecurity.go
		return m, err
	}
	s, ok := obj.(*appsv1.StatefulSet)
	if !ok || len(s.Spec.VolumeClaimTemplates) == 0 {
		return c.findMissing(ctx, obj.GetNamespace(), spec)
	}
	start, n := setOrdinals(s)
	var first *missingRef
	var ready int32
	for i := range n {
		m, err := c.findMissing(ctx, s.Namespace, ordinalPodSpec(s, start+i))
		if err != nil {
			return nil, err
		}
		if m == nil {
			ready++
			continue
		}
		if first == nil {
			first = m
		}
		if s.Spec.PodManagementPolicy != appsv1.ParallelPodManagement {
			break
		}
	}
	if first != nil {
		first.ready = ready
	}
	return first, nil
}

// hasClaimTemplates reports whether obj is a StatefulSet with claim
// templates, whose pods need their claims.
func hasClaimTemplates(obj client.Object) bool {
	s, ok := obj.(*appsv1.StatefulSet)
	return ok && len(s.Spec.VolumeClaimTemplates) > 0
}

// podSpecs are the pod specs of workload obj: one per ordinal of a
// StatefulSet with claim templates, else its one template's.
func podSpecs(obj client.Object) []*corev1.PodSpec {
	spec, _ := podSpecOf(obj)
	if spec == nil {
		return nil
	}
	s, ok := obj.(*appsv1.StatefulSet)
	if !ok || len(s.Spec.VolumeClaimTemplates) == 0 {
		return []*corev1.PodSpec{spec}
	}
	start, n := setOrdinals(s)
	specs := make([]*corev1.PodSpec, 0, n)
	for i := range n {
		specs = append(specs, ordinalPodSpec(s, start+i))
	}
	return specs
}

// statefulSetClaims is the StatefulSet controller's work on the claims of
// s (see above): the claims of the ordinals a scale-down removed go with
// whenScaled Delete; the claims of each ordinal whose pod the controller
// creates now exist, bound by the fake claim controller as far as it binds
// them, with the owner the policy gives them. The caller holds the lock.
func (c *Cluster) statefulSetClaims(ctx context.Context, s *appsv1.StatefulSet) error {
	if len(s.Spec.VolumeClaimTemplates) == 0 || s.DeletionTimestamp != nil {
		return nil
	}
	start, n := setOrdinals(s)
	if err := c.dropScaledClaims(ctx, s, start, n); err != nil {
		return err
	}
	for i := range n {
		for t := range s.Spec.VolumeClaimTemplates {
			if err := c.ensureClaim(ctx, s, &s.Spec.VolumeClaimTemplates[t], start+i); err != nil {
				return err
			}
		}
		if s.Spec.PodManagementPolicy == appsv1.ParallelPodManagement {
			continue
		}
		// OrderedReady: the next pod comes once this one is ready.
		m, err := c.findMissing(ctx, s.Namespace, ordinalPodSpec(s, start+i))
		if err != nil || m != nil {
			return err
		}
	}
	return nil
}

// claimPolicy is s's persistentVolumeClaimRetentionPolicy: whether its
// claims go with it and with a scale-down.
func claimPolicy(s *appsv1.StatefulSet) (whenDeleted, whenScaled bool) {
	p := s.Spec.PersistentVolumeClaimRetentionPolicy
	if p == nil {
		return false, false
	}
	return p.WhenDeleted == appsv1.DeletePersistentVolumeClaimRetentionPolicyType,
		p.WhenScaled == appsv1.DeletePersistentVolumeClaimRetentionPolicyType
}

// ensureClaim creates the claim of template tpl for ordinal unless it
// exists, and lets the fake claim controller look at a new one. Of a claim
// that exists only the owner reference to s follows the policy, as
// updateClaimOwnerRefForSetAndPod keeps it (a claim another object
// controls, or with a reference to an earlier set of the name, is left
// alone).
func (c *Cluster) ensureClaim(ctx context.Context, s *appsv1.StatefulSet, tpl *corev1.PersistentVolumeClaim, ordinal int32) error {
	name := templateClaimName(s, tpl, ordinal)
	whenDeleted, _ := claimPolicy(s)
	old := &corev1.PersistentVolumeClaim{}
	err := c.inner.Get(ctx, client.ObjectKey{Namespace: s.Namespace, Name: name}, old)
	switch {
	case err == nil:
		return c.ownClaim(ctx, s, old, whenDeleted)
	case !apierrors.IsNotFound(err):
		return fmt.Errorf("simulated cluster %s: StatefulSet %s/%s: look up claim %s: %w", c.key, s.Namespace, s.Name, name, err)
	}
	if err := c.forbidTerminating(ctx, pvcGVK, s.Namespace, name); err != nil {
		return nil // the namespace goes: the API server refuses the claim, and the pod
	}
	pvc := tpl.DeepCopy()
	pvc.Namespace, pvc.Name, pvc.Status = s.Namespace, name, corev1.PersistentVolumeClaimStatus{}
	pvc.ResourceVersion, pvc.UID, pvc.OwnerReferences = "", "", nil
	if s.Spec.Selector != nil {
		if pvc.Labels == nil {
			pvc.Labels = make(map[string]string, len(s.Spec.Selector.MatchLabels))
		}
		for k, v := range s.Spec.Selector.MatchLabels {
			pvc.Labels[k] = v
		}
	}
	if whenDeleted {
		pvc.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(s, statefulSetGVK)}
	}
	if err := c.inner.Create(ctx, pvc, client.FieldOwner(controllerManager)); err != nil {
		return fmt.Errorf("simulated cluster %s: StatefulSet %s/%s: create claim %s: %w", c.key, s.Namespace, s.Name, name, err)
	}
	return c.control(ctx, objectRef{gvk: pvcGVK, namespace: s.Namespace, name: name})
}

// ownClaim makes s the controller of claim pvc when want (and the claim has
// none), or removes the reference to s when not.
func (c *Cluster) ownClaim(ctx context.Context, s *appsv1.StatefulSet, pvc *corev1.PersistentVolumeClaim, want bool) error {
	refs := pvc.OwnerReferences
	has := false
	for _, r := range refs {
		if r.UID == s.UID {
			has = true
		} else if (r.Kind == "StatefulSet" && r.Name == s.Name) || (r.Controller != nil && *r.Controller) {
			return nil // an earlier set's, or another controller's
		}
	}
	switch {
	case want && !has:
		pvc.OwnerReferences = append(refs, *metav1.NewControllerRef(s, statefulSetGVK))
	case !want && has:
		pvc.OwnerReferences = nil
		for _, r := range refs {
			if r.UID != s.UID {
				pvc.OwnerReferences = append(pvc.OwnerReferences, r)
			}
		}
	default:
		return nil
	}
	if err := c.inner.Update(ctx, pvc, client.FieldOwner(controllerManager)); err != nil {
		return fmt.Errorf("simulated cluster %s: StatefulSet %s/%s: set the owner of claim %s: %w", c.key, s.Namespace, s.Name, pvc.Name, err)
	}
	return nil
}

// dropScaledClaims deletes, with whenScaled Delete, the claims of the
// ordinals from start+n up to the pods s's status counts, which a
// scale-down removes (but claims another object controls).
func (c *Cluster) dropScaledClaims(ctx context.Context, s *appsv1.StatefulSet, start, n int32) error {
	if _, whenScaled := claimPolicy(s); !whenScaled {
		return nil
	}
	for o := start + n; o < start+s.Status.Replicas; o++ {
		for t := range s.Spec.VolumeClaimTemplates {
			pvc := &corev1.PersistentVolumeClaim{}
			err := c.inner.Get(ctx, client.ObjectKey{Namespace: s.Namespace, Name: templateClaimName(s, &s.Spec.VolumeClaimTemplates[t], o)}, pvc)
			if apierrors.IsNotFound(err) {
				continue
			}
			if err != nil {
				return fmt.Errorf("simulated cluster %s: StatefulSet %s/%s: %w", c.key, s.Namespace, s.Name, err)
			}
			if ref := metav1.GetControllerOf(pvc); ref != nil && ref.UID != s.UID {
				continue
			}
			if err := c.inner.Delete(ctx, pvc); client.IgnoreNotFound(err) != nil {
				return fmt.Errorf("simulated cluster %s: StatefulSet %s/%s: delete claim %s: %w", c.key, s.Namespace, s.Name, pvc.Name, err)
			}
		}
	}
	return nil
}

// claimPending says why claim pvc is not Bound, as the PersistentVolume
// controller's events or the simulated cluster's rules would: its
// StorageClass does not exist (ProvisioningFailed), it waits for its first
// consumer, or a rule holds it; "" when none of these.
func (c *Cluster) claimPending(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (string, error) {
	ref := objectRef{gvk: pvcGVK, namespace: pvc.Namespace, name: pvc.Name}
	rule := c.set.opts.Rules.find(objectInfo{target: c.key, gvk: pvcGVK, namespace: pvc.Namespace, name: pvc.Name, labels: pvc.Labels})
	switch {
	case rule != nil && (rule.Hang || rule.Fail != ""):
		return "a rule of the simulated cluster keeps it Pending", nil
	case c.pending[ref].due.After(c.set.opts.Now()):
		return "a rule of the simulated cluster binds it at " + c.pending[ref].due.UTC().Format("15:04:05"), nil
	}
	if missing, err := c.missingClass(ctx, pvc); err != nil || missing {
		return fmt.Sprintf("storageclass.storage.k8s.io %q not found", claimClass(pvc)), err
	}
	if missing, err := c.volumeMissing(ctx, pvc); err != nil || missing {
		return fmt.Sprintf("the PersistentVolume %q it names in spec.volumeName does not exist or is bound to another claim", pvc.Spec.VolumeName), err
	}
	wffc, err := c.bindsOnFirstConsumer(ctx, pvc)
	if err != nil || !wffc {
		return "", err
	}
	return "waiting for first consumer to be created before binding", nil
}
