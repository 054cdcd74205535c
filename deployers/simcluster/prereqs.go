package simcluster

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A workload's pods need the objects their spec names: the ServiceAccount
// (to be created at all), PersistentVolumeClaims, Bound (to be scheduled),
// the Secrets and ConfigMaps of volumes, with the keys of their items (to
// be started), and those of env and envFrom, with the keys env names (to
// create the containers). While one of them is missing, the fake
// controller of the workload writes the status kube-controller-manager
// would (the workload stays not ready) instead of making it ready; when
// the object appears (or a claim is bound), the workload is looked at
// again (waiting, recheck).

// stall is how far the pods of a workload get when an object they need is
// missing.
type stall int

const (
	// stallNoPods: the ServiceAccount is missing, the API server's
	// ServiceAccount admission refuses the pods.
	stallNoPods stall = iota + 1
	// stallUnschedulable: a PersistentVolumeClaim is missing, or not
	// Bound and of immediate binding; the scheduler cannot place the pods.
	stallUnschedulable
	// stallBinding: a claim of a WaitForFirstConsumer StorageClass is not
	// Bound; the scheduler has picked the node and waits for the claim
	// (PreBind) before it binds the pods.
	stallBinding
	// stallMount: a Secret or ConfigMap of a volume, or a key of its
	// items, is missing; the kubelet cannot mount it, the containers stay
	// ContainerCreating.
	stallMount
	// stallConfig: a Secret or ConfigMap of env or envFrom, or a key env
	// names, is missing; the container waits in CreateContainerConfigError.
	stallConfig
)

// missingRef is the first object a pod spec needs that does not exist.
type missingRef struct {
	stall stall
	// resource is the singular resource name as the errors of Kubernetes
	// spell it: serviceaccount, persistentvolumeclaim, secret, configmap.
	resource, name string
	// container is the container whose env names the object (stallConfig),
	// init tells whether it is an init container.
	container string
	init      bool
	// why, when not empty, is the message in place of notFound's: the
	// object exists, but a key or its binding is missing.
	why string
}

// notFound is the message of what is missing: the error of a lookup of
// the missing object, or why.
func (m *missingRef) notFound() string {
	if m.why != "" {
		return m.why
	}
	return fmt.Sprintf("%s %q not found", m.resource, m.name)
}

var podGVK = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}

// podSpecOf returns the pod spec of a workload of a kind a fake controller
// runs and whether its controller creates pods now: not for zero replicas,
// a zero parallelism or a suspended Job.
func podSpecOf(obj client.Object) (*corev1.PodSpec, bool) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Template.Spec, replicas(o.Spec.Replicas) > 0
	case *appsv1.StatefulSet:
		return &o.Spec.Template.Spec, replicas(o.Spec.Replicas) > 0
	case *appsv1.DaemonSet:
		return &o.Spec.Template.Spec, true
	case *appsv1.ReplicaSet:
		return &o.Spec.Template.Spec, replicas(o.Spec.Replicas) > 0
	case *corev1.ReplicationController:
		if o.Spec.Template == nil {
			return nil, false
		}
		return &o.Spec.Template.Spec, replicas(o.Spec.Replicas) > 0
	case *batchv1.Job:
		return &o.Spec.Template.Spec, replicas(o.Spec.Parallelism) > 0 && (o.Spec.Suspend == nil || !*o.Spec.Suspend)
	case *corev1.Pod:
		return &o.Spec, true
	}
	return nil, false
}

// serviceAccountOf is the ServiceAccount a pod spec runs as.
func serviceAccountOf(s *corev1.PodSpec) string {
	if s.ServiceAccountName != "" {
		return s.ServiceAccountName
	}
	return s.DeprecatedServiceAccount //nolint:staticcheck // what the API server reads when the name is empty
}

// hasRefs reports whether a pod spec names any object findMissing looks
// for.
func hasRefs(s *corev1.PodSpec) bool {
	if sa := serviceAccountOf(s); sa != "" && sa != "default" || len(s.Volumes) > 0 {
		return true
	}
	for _, cs := range [][]corev1.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			if len(cs[i].EnvFrom) > 0 {
				return true
			}
			for _, e := range cs[i].Env {
				if e.ValueFrom != nil && (e.ValueFrom.SecretKeyRef != nil || e.ValueFrom.ConfigMapKeyRef != nil) {
					return true
				}
			}
		}
	}
	return false
}

// findMissing returns the first object in namespace ns that pods of spec
// need and that does not exist, in the order a pod needs them, or nil. The
// ServiceAccount "default" (and none) counts as present: a real namespace
// always has it (its controller creates it), a simulated one does not.
// Optional references and keys within the objects are not looked at.
func (c *Cluster) findMissing(ctx context.Context, ns string, s *corev1.PodSpec) (*missingRef, error) {
	if sa := serviceAccountOf(s); sa != "" && sa != "default" {
		if ok, err := c.exists(ctx, &corev1.ServiceAccount{}, ns, sa); err != nil || !ok {
			return missing(err, &missingRef{stall: stallNoPods, resource: "serviceaccount", name: sa})
		}
	}
	for _, v := range s.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		if ok, err := c.exists(ctx, &corev1.PersistentVolumeClaim{}, ns, v.PersistentVolumeClaim.ClaimName); err != nil || !ok {
			return missing(err, &missingRef{stall: stallUnschedulable, resource: "persistentvolumeclaim", name: v.PersistentVolumeClaim.ClaimName})
		}
	}
	if m, err := c.firstUnbound(ctx, ns, s); m != nil || err != nil {
		return m, err
	}
	for _, v := range s.Volumes {
		var refs []objectUse
		switch {
		case v.Secret != nil:
			refs = append(refs, objectUse{secret: true, name: v.Secret.SecretName, optional: v.Secret.Optional, keys: itemKeys(v.Secret.Items)})
		case v.ConfigMap != nil:
			refs = append(refs, objectUse{name: v.ConfigMap.Name, optional: v.ConfigMap.Optional, keys: itemKeys(v.ConfigMap.Items), binary: true})
		case v.Projected != nil:
			for _, p := range v.Projected.Sources {
				if p.Secret != nil {
					refs = append(refs, objectUse{secret: true, name: p.Secret.Name, optional: p.Secret.Optional, keys: itemKeys(p.Secret.Items)})
				}
				if p.ConfigMap != nil {
					refs = append(refs, objectUse{name: p.ConfigMap.Name, optional: p.ConfigMap.Optional, keys: itemKeys(p.ConfigMap.Items), binary: true})
				}
			}
		}
		if m, err := c.firstMissing(ctx, ns, refs, &missingRef{stall: stallMount}); m != nil || err != nil {
			return m, err
		}
	}
	for _, init := range []bool{true, false} {
		cs := s.Containers
		if init {
			cs = s.InitContainers
		}
		for i := range cs {
			var refs []objectUse
			for _, e := range cs[i].EnvFrom {
				if e.SecretRef != nil {
					refs = append(refs, objectUse{secret: true, name: e.SecretRef.Name, optional: e.SecretRef.Optional})
				}
				if e.ConfigMapRef != nil {
					refs = append(refs, objectUse{name: e.ConfigMapRef.Name, optional: e.ConfigMapRef.Optional})
				}
			}
			for _, e := range cs[i].Env {
				switch {
				case e.ValueFrom == nil:
				case e.ValueFrom.SecretKeyRef != nil:
					r := e.ValueFrom.SecretKeyRef
					refs = append(refs, objectUse{secret: true, name: r.Name, optional: r.Optional, keys: []string{r.Key}, env: true})
				case e.ValueFrom.ConfigMapKeyRef != nil:
					r := e.ValueFrom.ConfigMapKeyRef
					refs = append(refs, objectUse{name: r.Name, optional: r.Optional, keys: []string{r.Key}, env: true})
				}
			}
			m, err := c.firstMissing(ctx, ns, refs, &missingRef{stall: stallConfig, container: cs[i].Name, init: init})
			if m != nil || err != nil {
				return m, err
			}
		}
	}
	return nil, nil
}

// objectUse is one reference of a pod spec to a Secret or a ConfigMap,
// and the keys it needs of it.
type objectUse struct {
	secret   bool
	name     string
	optional *bool
	keys     []string
	// binary: a ConfigMap's binaryData has the keys too (volumes); env
	// reads data only (the kubelet's makeEnvironmentVariables).
	binary bool
	// env: a missing key fails the container's config with the kubelet's
	// message.
	env bool
}

// itemKeys are the keys of a volume's items.
func itemKeys(items []corev1.KeyToPath) []string {
	keys := make([]string, 0, len(items))
	for _, it := range items {
		keys = append(keys, it.Key)
	}
	return keys
}

// firstMissing returns m, filled in, for the first of refs that is not
// optional and does not exist or lacks a key it needs, or nil. An optional
// reference needs neither the object nor its keys, as the kubelet reads it.
func (c *Cluster) firstMissing(ctx context.Context, ns string, refs []objectUse, m *missingRef) (*missingRef, error) {
	for _, r := range refs {
		if r.optional != nil && *r.optional {
			continue
		}
		cm, secret := &corev1.ConfigMap{}, &corev1.Secret{}
		var obj client.Object = cm
		m.resource = "configmap"
		if r.secret {
			obj, m.resource = secret, "secret"
		}
		ok, err := c.exists(ctx, obj, ns, r.name)
		if err != nil || !ok {
			m.name = r.name
			return missing(err, m)
		}
		for _, k := range r.keys {
			has := false
			if r.secret {
				_, has = secret.Data[k]
			} else {
				_, has = cm.Data[k]
				if _, bin := cm.BinaryData[k]; bin && r.binary {
					has = true
				}
			}
			if has {
				continue
			}
			m.name = r.name
			kind := "ConfigMap"
			if r.secret {
				kind = "Secret"
			}
			// The kubelet's errors: makeEnvironmentVariables for env; a
			// volume's MakePayload (secret, configmap) fails the mount,
			// which the pod's status does not show.
			switch {
			case r.env:
				m.why = fmt.Sprintf("couldn't find key %s in %s %s/%s", k, kind, ns, r.name)
			case r.secret:
				m.why = "references non-existent secret key: " + k
			default:
				m.why = "configmap references non-existent config key: " + k
			}
			return m, nil
		}
	}
	return nil, nil
}

// unboundImmediate is the scheduler's reason (VolumeBinding's PreFilter)
// for a pod whose claim of immediate binding is not bound.
const unboundImmediate = "pod has unbound immediate PersistentVolumeClaims"

// firstUnbound returns, for pods of spec whose claims all exist, the first
// claim that is not Bound, or nil: one of immediate binding (the
// scheduler does not place the pods) before one whose StorageClass binds
// on the first consumer (the scheduler has placed them and waits for the
// claim to be bound). A claim counts as Bound by its phase (the simulated
// cluster's PersistentVolumeClaim controller sets no volume).
func (c *Cluster) firstUnbound(ctx context.Context, ns string, s *corev1.PodSpec) (*missingRef, error) {
	var delayed *missingRef
	for _, v := range s.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		pvc := &corev1.PersistentVolumeClaim{}
		if _, err := c.exists(ctx, pvc, ns, v.PersistentVolumeClaim.ClaimName); err != nil {
			return nil, err
		}
		if pvc.Status.Phase == corev1.ClaimBound {
			continue
		}
		wffc, err := c.bindsOnFirstConsumer(ctx, pvc)
		if err != nil {
			return nil, err
		}
		m := &missingRef{stall: stallUnschedulable, resource: "persistentvolumeclaim", name: pvc.Name, why: unboundImmediate}
		if !wffc || pvc.Spec.VolumeName != "" { // a pre-bound claim counts as immediate
			return m, nil
		}
		if delayed == nil {
			m.stall, m.why = stallBinding, ""
			delayed = m
		}
	}
	return delayed, nil
}

// bindsOnFirstConsumer reports whether pvc's StorageClass exists and has
// volumeBindingMode WaitForFirstConsumer, as the scheduler's
// IsDelayBindingMode (component-helpers storage/volume) decides: a claim
// of no class or of a class that does not exist binds at once.
func (c *Cluster) bindsOnFirstConsumer(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (bool, error) {
	class := pvc.Annotations[corev1.BetaStorageClassAnnotation]
	if class == "" && pvc.Spec.StorageClassName != nil {
		class = *pvc.Spec.StorageClassName
	}
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
	for _, list := range consumerLists() {
		if err := c.inner.List(ctx, list, client.InNamespace(ns)); err != nil {
			return false, fmt.Errorf("simulated cluster %s: list %T: %w", c.key, list, err)
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return false, err
		}
		for _, it := range items {
			o, ok := it.(client.Object)
			if !ok {
				continue
			}
			spec, makesPods := podSpecOf(o)
			if spec == nil || !makesPods || !usesClaim(spec, name) {
				continue
			}
			m, err := c.findMissing(ctx, ns, spec)
			if err != nil {
				return false, err
			}
			if m == nil || m.stall >= stallBinding {
				return true, nil
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

// settleOne does a status fill that is due (control) and, when it bound a
// claim, lets the workloads waiting for it in its namespace be looked at
// again (recheck), as the scheduler retries the pods once a claim is bound.
func (c *Cluster) settleOne(ctx context.Context, ref objectRef) error {
	if err := c.control(ctx, ref); err != nil {
		return err
	}
	if ref.gvk != pvcGVK {
		return nil
	}
	return c.recheck(ctx, ref.gvk, ref.namespace, ref.name)
}

var pvcGVK = schema.GroupVersionKind{Version: "v1", Kind: "PersistentVolumeClaim"}

func missing(err error, m *missingRef) (*missingRef, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}

// exists reports whether the object ns/name of obj's kind exists.
func (c *Cluster) exists(ctx context.Context, obj client.Object, ns, name string) (bool, error) {
	err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, obj)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("simulated cluster %s: look up %T %s/%s: %w", c.key, obj, ns, name, err)
	}
	return true, nil
}

// awaitPrereqs is the fake controller's look at the objects the pods of
// obj need, before it makes obj ready (control calls it once the status is
// not yet the one wanted and no rule makes the controller hang). While one
// is missing it writes the status kube-controller-manager would write
// instead, remembers obj as waiting and returns true. Once none is missing
// it forgets obj and returns false; a rule's duration counts from then.
func (c *Cluster) awaitPrereqs(ctx context.Context, ref objectRef, obj client.Object, now metav1.Time) (bool, error) {
	spec, makesPods := podSpecOf(obj)
	if spec == nil {
		return false, nil
	}
	var m *missingRef
	if makesPods {
		var err error
		if m, err = c.findMissing(ctx, ref.namespace, spec); err != nil {
			return false, err
		}
	}
	if m == nil {
		if _, was := c.waiting[ref]; was {
			delete(c.waiting, ref)
			if d, ok := obj.(*appsv1.Deployment); ok && stalledDeployment(d) {
				delete(c.pending, ref) // the wake-up for the deadline
			}
		}
		return false, nil
	}
	c.waiting[ref] = struct{}{}
	want := obj.DeepCopyObject().(client.Object)
	var wake time.Time
	switch o := want.(type) {
	case *appsv1.Deployment:
		wake = stallDeployment(o, m, now)
	case *appsv1.StatefulSet:
		stallStatefulSet(o, m)
	case *appsv1.DaemonSet:
		stallDaemonSet(o, m)
	case *appsv1.ReplicaSet:
		r := replicas(o.Spec.Replicas)
		o.Status = appsv1.ReplicaSetStatus{ObservedGeneration: o.Generation, Replicas: r, FullyLabeledReplicas: r}
		if m.stall == stallNoPods {
			o.Status.Replicas, o.Status.FullyLabeledReplicas = 0, 0
			o.Status.Conditions = []appsv1.ReplicaSetCondition{{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue,
				Reason: "FailedCreate", Message: forbiddenPod(o.Name+"-", ref.namespace, m), LastTransitionTime: now}}
		}
	case *corev1.ReplicationController:
		r := replicas(o.Spec.Replicas)
		o.Status = corev1.ReplicationControllerStatus{ObservedGeneration: o.Generation, Replicas: r, FullyLabeledReplicas: r}
		if m.stall == stallNoPods {
			o.Status.Replicas, o.Status.FullyLabeledReplicas = 0, 0
			o.Status.Conditions = []corev1.ReplicationControllerCondition{{Type: corev1.ReplicationControllerReplicaFailure,
				Status: corev1.ConditionTrue, Reason: "FailedCreate", Message: forbiddenPod(o.Name+"-", ref.namespace, m), LastTransitionTime: now}}
		}
	case *batchv1.Job:
		o.Status = batchv1.JobStatus{StartTime: &now}
		if m.stall != stallNoPods {
			o.Status.Active = activePods(o)
		}
	case *corev1.Pod:
		stallPod(o, m, now)
	}
	if wake.IsZero() {
		delete(c.pending, ref)
	} else {
		c.pending[ref] = pendingFill{due: wake, uid: string(obj.GetUID()), generation: obj.GetGeneration()}
	}
	if sameStatus(obj, want) {
		return true, nil
	}
	if err := c.inner.Status().Update(ctx, want, client.FieldOwner(controllerManager)); err != nil {
		return true, fmt.Errorf("simulated cluster %s: fake controller: update status of %s %s: %w", c.key, ref.gvk.Kind, ref.name, err)
	}
	return true, nil
}

// forbiddenPod is the error of the API server's ServiceAccount admission
// (plugin/pkg/admission/serviceaccount) for a pod named name (or its
// generateName) whose ServiceAccount m does not exist.
func forbiddenPod(name, ns string, m *missingRef) string {
	return apierrors.NewForbidden(corev1.Resource("pods"), name,
		fmt.Errorf("error looking up service account %s/%s: %s", ns, m.name, m.notFound())).Error()
}

// Reasons of a Deployment's Progressing condition, as
// pkg/controller/deployment/util names them.
const (
	reasonNewRSCreated = "NewReplicaSetCreated"
	reasonRSUpdated    = "ReplicaSetUpdated"
	reasonTimedOut     = "ProgressDeadlineExceeded"
)

// stalledDeployment reports whether d's status is one stallDeployment
// wrote for its generation.
func stalledDeployment(d *appsv1.Deployment) bool {
	if d.Status.ObservedGeneration != d.Generation {
		return false
	}
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing {
			return c.Reason == reasonNewRSCreated || c.Reason == reasonRSUpdated || c.Reason == reasonTimedOut && d.Status.AvailableReplicas == 0
		}
	}
	return false
}

// stallDeployment sets the status of a Deployment whose pods miss m, as
// kube-controller-manager's deployment controller
// (pkg/controller/deployment: sync.go, progress.go) and the replica set
// controller write it for the first rollout of its template: the new
// ReplicaSet is created (Progressing NewReplicaSetCreated); its pods are
// created but never ready (Progressing ReplicaSetUpdated), or, without
// their ServiceAccount, refused (ReplicaFailure FailedCreate). When the
// Progressing condition was last updated progressDeadlineSeconds ago, it
// turns False with ProgressDeadlineExceeded; the controller looks one
// second after the deadline (requeueStuckDeployment). stallDeployment
// returns that time while it is ahead, else zero.
func stallDeployment(d *appsv1.Deployment, m *missingRef, now metav1.Time) time.Time {
	r := replicas(d.Spec.Replicas)
	rs := d.Name + "-" + podTemplateHash(&d.Spec.Template, d.Status.CollisionCount)
	var prev []appsv1.DeploymentCondition
	if stalledDeployment(d) {
		prev = d.Status.Conditions
	}
	created := m.stall != stallNoPods
	st := appsv1.DeploymentStatus{ObservedGeneration: d.Generation, UnavailableReplicas: r, CollisionCount: d.Status.CollisionCount}
	if created {
		st.Replicas, st.UpdatedReplicas = r, r
	}
	avail := appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionFalse, Reason: "MinimumReplicasUnavailable",
		Message: "Deployment does not have minimum availability."}
	if 0 >= r-maxUnavailable(d) {
		avail.Status, avail.Reason, avail.Message = corev1.ConditionTrue, "MinimumReplicasAvailable", "Deployment has minimum availability."
	}
	setCondition(prev, &avail, now)
	hasDeadline := d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != maxInt32
	// progressing is as of the last progress: the creation of the new
	// ReplicaSet, or of its pods.
	progressing := appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: reasonNewRSCreated,
		Message: fmt.Sprintf("Created new replica set %q", rs), LastUpdateTime: now, LastTransitionTime: now}
	if created {
		progressing.Reason, progressing.Message = reasonRSUpdated, fmt.Sprintf("ReplicaSet %q is progressing.", rs)
	}
	old := findCondition(prev, appsv1.DeploymentProgressing)
	switch {
	case old == nil:
	case created && d.Status.UpdatedReplicas == 0: // progress: the pods are created now
		if old.Status == corev1.ConditionTrue {
			progressing.LastTransitionTime = old.LastTransitionTime
		}
	default:
		progressing = *old
	}
	var wake time.Time
	if hasDeadline && progressing.Reason != reasonTimedOut {
		wake = progressing.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds)*time.Second + time.Second)
		if !now.Time.Before(wake) {
			wake = time.Time{}
			progressing = appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: reasonTimedOut,
				Message: fmt.Sprintf("ReplicaSet %q has timed out progressing.", rs), LastUpdateTime: now, LastTransitionTime: now}
		}
	}
	switch {
	case !hasDeadline:
		st.Conditions = []appsv1.DeploymentCondition{avail}
	case progressing.Reason == reasonNewRSCreated:
		st.Conditions = []appsv1.DeploymentCondition{progressing, avail}
	default:
		st.Conditions = []appsv1.DeploymentCondition{avail, progressing}
	}
	if !created {
		// The new ReplicaSet's failure (ReplicaSetToDeploymentCondition),
		// set after the Progressing condition was.
		failure := appsv1.DeploymentCondition{Type: appsv1.DeploymentReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate",
			Message: forbiddenPod(rs+"-", d.Namespace, m)}
		setCondition(prev, &failure, now)
		at := len(st.Conditions)
		if progressing.Reason == reasonTimedOut {
			at--
		}
		st.Conditions = slices.Insert(st.Conditions, at, failure)
	}
	d.Status = st
	return wake
}

// findCondition returns the condition of type t in conds, or nil.
func findCondition(conds []appsv1.DeploymentCondition, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

// setCondition sets the times of c: those of the same condition in prev
// when its status and reason did not change, else now (the transition time
// is kept when only the reason changed), as deploymentutil's
// SetDeploymentCondition does.
func setCondition(prev []appsv1.DeploymentCondition, c *appsv1.DeploymentCondition, now metav1.Time) {
	c.LastUpdateTime, c.LastTransitionTime = now, now
	old := findCondition(prev, c.Type)
	switch {
	case old == nil || old.Status != c.Status:
	case old.Reason == c.Reason:
		*c = *old
	default:
		c.LastTransitionTime = old.LastTransitionTime
	}
}

const maxInt32 = 1<<31 - 1

// maxUnavailable is how many of a Deployment's replicas may be unavailable
// while it counts as available, as deploymentutil.MaxUnavailable computes it.
func maxUnavailable(d *appsv1.Deployment) int32 {
	r := replicas(d.Spec.Replicas)
	ru := d.Spec.Strategy.RollingUpdate
	if d.Spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType || ru == nil || r == 0 {
		return 0
	}
	zero := intstr.FromInt32(0)
	surge, err1 := intstr.GetScaledValueFromIntOrPercent(intstr.ValueOrDefault(ru.MaxSurge, zero), int(r), true)
	unavailable, err2 := intstr.GetScaledValueFromIntOrPercent(intstr.ValueOrDefault(ru.MaxUnavailable, zero), int(r), false)
	if err1 != nil || err2 != nil {
		return 0
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return min(int32(unavailable), r)
}

// stallStatefulSet: the StatefulSet controller creates pod 0 first and
// waits for it to be ready (OrderedReady, the default), or all pods at
// once (Parallel); without the ServiceAccount none.
func stallStatefulSet(s *appsv1.StatefulSet, m *missingRef) {
	var n int32
	switch {
	case m.stall == stallNoPods:
	case s.Spec.PodManagementPolicy == appsv1.ParallelPodManagement:
		n = replicas(s.Spec.Replicas)
	default:
		n = 1
	}
	rev := s.Name + "-sim"
	s.Status = appsv1.StatefulSetStatus{ObservedGeneration: s.Generation, Replicas: n, CurrentReplicas: n, UpdatedReplicas: n,
		CurrentRevision: rev, UpdateRevision: rev}
}

// stallDaemonSet: the one node's pod is created but not ready, or, without
// the ServiceAccount, not created.
func stallDaemonSet(d *appsv1.DaemonSet, m *missingRef) {
	var n int32 = 1
	if m.stall == stallNoPods {
		n = 0
	}
	d.Status = appsv1.DaemonSetStatus{ObservedGeneration: d.Generation, DesiredNumberScheduled: 1,
		CurrentNumberScheduled: n, UpdatedNumberScheduled: n, NumberUnavailable: 1}
}

// activePods is how many pods a Job runs at once: its parallelism, at most
// its completions.
func activePods(j *batchv1.Job) int32 {
	n := replicas(j.Spec.Parallelism)
	if j.Spec.Completions != nil {
		n = min(n, *j.Spec.Completions)
	}
	return n
}

// stallPod sets the status of a Pod that misses m: Pending and
// unschedulable without its claim (the scheduler's message for one node),
// else scheduled with its containers waiting: ContainerCreating while a
// volume cannot be mounted (PodInitializing behind init containers), or
// CreateContainerConfigError with the kubelet's message for the container
// whose env names the missing object. (A Pod without its ServiceAccount is
// refused when created: admitPod.)
func stallPod(p *corev1.Pod, m *missingRef, now metav1.Time) {
	st := corev1.PodStatus{Phase: corev1.PodPending, ObservedGeneration: p.Generation, QOSClass: p.Status.QOSClass}
	if m.stall == stallUnschedulable {
		st.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
			Message:            "0/1 nodes are available: " + m.notFound() + ". preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
			LastTransitionTime: now}}
		p.Status = st
		return
	}
	if m.stall == stallBinding {
		p.Status = st // assumed on a node, not yet bound to it: no condition
		return
	}
	st.StartTime, st.HostIP = &now, "172.18.0.2"
	waiting := func(c corev1.Container, reason, msg string) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: c.Name, Image: c.Image, Started: new(false),
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}}
	}
	running := func(c corev1.Container) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: true, Started: new(true),
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}}
	}
	initialized := len(p.Spec.InitContainers) == 0 || m.stall == stallConfig && !m.init
	var blockedInit, unready []string
	for _, c := range p.Spec.InitContainers {
		switch {
		case initialized:
			st.InitContainerStatuses = append(st.InitContainerStatuses, corev1.ContainerStatus{Name: c.Name, Image: c.Image, Started: new(false),
				State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", StartedAt: now, FinishedAt: now}}})
		case m.stall == stallConfig && c.Name == m.container:
			st.InitContainerStatuses = append(st.InitContainerStatuses, waiting(c, "CreateContainerConfigError", m.notFound()))
			blockedInit = append(blockedInit, c.Name)
		default:
			st.InitContainerStatuses = append(st.InitContainerStatuses, waiting(c, "PodInitializing", ""))
			blockedInit = append(blockedInit, c.Name)
		}
	}
	for _, c := range p.Spec.Containers {
		switch {
		case !initialized:
			st.ContainerStatuses = append(st.ContainerStatuses, waiting(c, "PodInitializing", ""))
		case m.stall == stallMount:
			st.ContainerStatuses = append(st.ContainerStatuses, waiting(c, "ContainerCreating", ""))
		case c.Name == m.container:
			st.ContainerStatuses = append(st.ContainerStatuses, waiting(c, "CreateContainerConfigError", m.notFound()))
		default:
			st.ContainerStatuses = append(st.ContainerStatuses, running(c))
			continue
		}
		unready = append(unready, c.Name)
	}
	sort.Strings(unready)
	initCond := corev1.PodCondition{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: now}
	if !initialized {
		initCond.Status, initCond.Reason = corev1.ConditionFalse, "ContainersNotInitialized"
		initCond.Message = fmt.Sprintf("containers with incomplete status: %v", blockedInit)
	}
	notReady := func(t corev1.PodConditionType) corev1.PodCondition {
		return corev1.PodCondition{Type: t, Status: corev1.ConditionFalse, Reason: "ContainersNotReady",
			Message: fmt.Sprintf("containers with unready status: %v", unready), LastTransitionTime: now}
	}
	st.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
		initCond, notReady(corev1.ContainersReady), notReady(corev1.PodReady)}
	p.Status = st
}

// admitPod refuses to create a Pod whose ServiceAccount does not exist, as
// the API server's ServiceAccount admission does (a Pod that exists is not
// looked at).
func (c *Cluster) admitPod(ctx context.Context, obj metav1.Object) error {
	var pod *corev1.Pod
	switch o := obj.(type) {
	case *corev1.Pod:
		pod = o
	case *unstructured.Unstructured:
		pod = &corev1.Pod{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, pod); err != nil {
			return nil // the write fails on its own
		}
	default:
		return nil
	}
	sa := serviceAccountOf(&pod.Spec)
	if sa == "" || sa == "default" {
		return nil
	}
	ns := obj.GetNamespace()
	if obj.GetName() != "" {
		if ok, err := c.exists(ctx, &corev1.Pod{}, ns, obj.GetName()); err != nil || ok {
			return err
		}
	}
	ok, err := c.exists(ctx, &corev1.ServiceAccount{}, ns, sa)
	if err != nil || ok {
		return err
	}
	name := obj.GetName()
	if name == "" {
		name = obj.GetGenerateName()
	}
	return apierrors.NewForbidden(corev1.Resource("pods"), name,
		fmt.Errorf("error looking up service account %s/%s: %w", ns, sa, apierrors.NewNotFound(corev1.Resource("serviceaccount"), sa)))
}

// recheck lets the fake controllers look again at the workloads waiting
// for an object in namespace ns, after a write of ns/name there, in a
// fixed order (control): those whose pods have everything now are handled
// as any change would; the others get the status of what they miss now
// (awaitPrereqs writes it only when it changed: the pods of a Deployment
// whose ServiceAccount appeared are created, a container's message names
// the key its Secret still lacks).
func (c *Cluster) recheck(ctx context.Context, gvk schema.GroupVersionKind, ns, name string) error {
	if len(c.waiting) == 0 || ns == "" {
		return nil
	}
	var refs []objectRef
	for ref := range c.waiting {
		if ref.namespace == ns && (ref.gvk != gvk || ref.name != name) {
			refs = append(refs, ref)
		}
	}
	sort.Slice(refs, func(i, j int) bool { return refKey(refs[i]) < refKey(refs[j]) })
	for _, ref := range refs {
		obj, err := c.getTyped(ctx, ref)
		if apierrors.IsNotFound(err) {
			delete(c.waiting, ref)
			continue
		}
		if err != nil {
			return err
		}
		if pvc, ok := obj.(*corev1.PersistentVolumeClaim); ok {
			// A claim waits for a consumer (awaitConsumer keeps it
			// waiting or not); once bound, the workloads waiting for it
			// are looked at again.
			if err := c.control(ctx, ref); err != nil {
				return err
			}
			if pvc.Status.Phase != corev1.ClaimBound && c.isBound(ctx, ref) {
				if err := c.recheck(ctx, ref.gvk, ref.namespace, ref.name); err != nil {
					return err
				}
			}
			continue
		}
		var m *missingRef
		if spec, makesPods := podSpecOf(obj); spec != nil && makesPods {
			if m, err = c.findMissing(ctx, ns, spec); err != nil {
				return err
			}
		}
		if err := c.control(ctx, ref); err != nil {
			return err
		}
		if m == nil {
			delete(c.waiting, ref)
		}
	}
	return nil
}

// isBound reports whether the claim ref names is Bound now.
func (c *Cluster) isBound(ctx context.Context, ref objectRef) bool {
	pvc := &corev1.PersistentVolumeClaim{}
	ok, err := c.exists(ctx, pvc, ref.namespace, ref.name)
	return err == nil && ok && pvc.Status.Phase == corev1.ClaimBound
}

// noteRestored remembers a restored workload whose pods name other
// objects as possibly waiting; keepWaiting then keeps those that wait.
func (c *Cluster) noteRestored(obj runtime.Object) {
	co, ok := obj.(client.Object)
	if !ok || fillers[obj.GetObjectKind().GroupVersionKind()] == nil {
		return
	}
	if pvc, ok := co.(*corev1.PersistentVolumeClaim); ok && pvc.Status.Phase != corev1.ClaimBound {
		// Perhaps waiting for its first consumer: control decides at the
		// next write in its namespace.
		c.waiting[objectRef{gvk: pvcGVK, namespace: co.GetNamespace(), name: co.GetName()}] = struct{}{}
		return
	}
	if spec, _ := podSpecOf(co); spec != nil && hasRefs(spec) {
		c.waiting[objectRef{gvk: obj.GetObjectKind().GroupVersionKind(), namespace: co.GetNamespace(), name: co.GetName()}] = struct{}{}
	}
}

// keepWaiting keeps, of the restored workloads noteRestored remembered,
// those whose pods miss an object now that every object is restored: a
// write in their namespace looks at them again (recheck). The others are
// left alone, as before they were saved.
func (c *Cluster) keepWaiting(ctx context.Context) error {
	refs := make([]objectRef, 0, len(c.waiting))
	for ref := range c.waiting {
		refs = append(refs, ref)
	}
	sort.Slice(refs, func(i, j int) bool { return refKey(refs[i]) < refKey(refs[j]) })
	for _, ref := range refs {
		if ref.gvk == pvcGVK {
			continue // noteRestored
		}
		obj, err := c.getTyped(ctx, ref)
		if err != nil {
			return fmt.Errorf("restore simulated cluster %s: %w", c.key, err)
		}
		spec, makesPods := podSpecOf(obj)
		var m *missingRef
		if makesPods {
			if m, err = c.findMissing(ctx, ref.namespace, spec); err != nil {
				return fmt.Errorf("restore simulated cluster %s: %w", c.key, err)
			}
		}
		if m == nil {
			delete(c.waiting, ref)
		}
	}
	return nil
}
