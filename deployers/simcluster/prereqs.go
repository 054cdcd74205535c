package simcluster

import (
	"context"
	"fmt"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
	// stallImage: the kubelet cannot parse a container's image; the
	// container waits in InvalidImageName until its image is changed.
	// Nothing is missing, but the pods get no further.
	stallImage
)

// missingRef is the first object a pod spec needs that does not exist.
type missingRef struct {
	stall stall
	// resource is the singular resource name as the errors of Kubernetes
	// spell it: serviceaccount, persistentvolumeclaim, secret, configmap.
	resource, name string
	// container is the container whose env names the object (stallConfig)
	// or whose image does not parse (stallImage, with the image), init
	// tells whether it is an init container.
	container, image string
	init             bool
	// why, when not empty, is the message in place of notFound's: the
	// object exists, but a key or its binding is missing, or the kubelet's
	// message for the image.
	why string
	// ready is how many pods of a StatefulSet with claim templates are
	// ready, those of the other ordinals (podsMissing).
	ready int32
	// podSecurity: PodSecurity admission refuses the pods (stallNoPods),
	// why is its reason (podsecurity.go).
	podSecurity bool
}

// reason is the kubelet's waiting reason of the container m names
// (stallConfig, stallImage).
func (m *missingRef) reason() string {
	if m.stall == stallImage {
		return ReasonInvalidImageName
	}
	return "CreateContainerConfigError"
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
	if serviceAccountOf(s) != "" || len(s.Volumes) > 0 {
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
// need and that does not exist, in the order a pod needs them, or nil (the
// objects every real namespace has count as present: exists).
// Optional references and keys within the objects are not looked at.
func (c *Cluster) findMissing(ctx context.Context, ns string, s *corev1.PodSpec) (*missingRef, error) {
	if sa := serviceAccountOf(s); sa != "" {
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
		if m, err := c.firstMissing(ctx, ns, volumeUses(v), &missingRef{stall: stallMount}); m != nil || err != nil {
			return m, err
		}
	}
	for _, init := range []bool{true, false} {
		cs := s.Containers
		if init {
			cs = s.InitContainers
		}
		for i := range cs {
			// The kubelet pulls a container's image before it makes its
			// config (kuberuntime's startContainer).
			if msg := invalidImage(cs[i].Image); msg != "" {
				return &missingRef{stall: stallImage, container: cs[i].Name, image: cs[i].Image, init: init, why: msg}, nil
			}
			m, err := c.firstMissing(ctx, ns, containerUses(&cs[i]), &missingRef{stall: stallConfig, container: cs[i].Name, init: init})
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

// volumeUses are the Secrets and ConfigMaps volume v mounts, with the keys
// of its items.
func volumeUses(v corev1.Volume) []objectUse {
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
	return refs
}

// containerUses are the Secrets and ConfigMaps the env and envFrom of
// container ct read, with the keys env names.
func containerUses(ct *corev1.Container) []objectUse {
	var refs []objectUse
	for _, e := range ct.EnvFrom {
		if e.SecretRef != nil {
			refs = append(refs, objectUse{secret: true, name: e.SecretRef.Name, optional: e.SecretRef.Optional})
		}
		if e.ConfigMapRef != nil {
			refs = append(refs, objectUse{name: e.ConfigMapRef.Name, optional: e.ConfigMapRef.Optional})
		}
	}
	for _, e := range ct.Env {
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
	return refs
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
// An object a simulated container is taken to have written has the keys
// its readers need: the container would have written them.
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
		if obj.GetAnnotations()[writtenByAnnotation] != "" {
			continue // what a container wrote into it is not known: its readers find their keys (jobwrites.go)
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

// exists reports whether the object ns/name of obj's kind exists, and
// reads it into obj. An object every real namespace has counts as existing
// (inEveryNamespace).
func (c *Cluster) exists(ctx context.Context, obj client.Object, ns, name string) (bool, error) {
	err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, obj)
	if apierrors.IsNotFound(err) {
		return inEveryNamespace(obj, name), nil
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
	m, err := c.podsMissing(ctx, obj)
	if err != nil {
		return false, err
	}
	if m == nil {
		if makesPods && c.awaitPodStart(ref, obj, spec) { // podstart.go
			return true, nil
		}
		if _, was := c.waiting[ref]; was {
			delete(c.waiting, ref)
			if d, ok := obj.(*appsv1.Deployment); ok && stalledDeployment(d) {
				delete(c.pending, ref) // the wake-up for the deadline
			}
		}
		return false, nil
	}
	if m.stall != stallImage || hasRefs(spec) || hasClaimTemplates(obj) {
		// Only a write of obj changes an image: a workload whose pods
		// need no other object need not be looked at again on other
		// writes (recheck), as noteRestored leaves it too.
		c.waiting[ref] = struct{}{}
	}
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

// admitPod refuses to create a Pod whose ServiceAccount does not exist, as
// the API server's ServiceAccount admission does, and then one that
// PodSecurity admission refuses (admitPodSecurity); a Pod that exists is
// not looked at.
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
	ns := obj.GetNamespace()
	if obj.GetName() != "" {
		if ok, err := c.exists(ctx, &corev1.Pod{}, ns, obj.GetName()); err != nil || ok {
			return err
		}
	}
	name := obj.GetName()
	if name == "" {
		name = obj.GetGenerateName()
	}
	if sa := serviceAccountOf(&pod.Spec); sa != "" {
		ok, err := c.exists(ctx, &corev1.ServiceAccount{}, ns, sa)
		if err != nil {
			return err
		}
		if !ok {
			return apierrors.NewForbidden(corev1.Resource("pods"), name,
				fmt.Errorf("error looking up service account %s/%s: %w", ns, sa, apierrors.NewNotFound(corev1.Resource("serviceaccount"), sa)))
		}
	}
	if err := c.admitPriorityClass(ctx, pod, name); err != nil { // priorityclass.go
		return err
	}
	return c.admitPodSecurity(ctx, ns, pod, name) // podsecurity.go
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
		m, err := c.podsMissing(ctx, obj)
		if err != nil {
			return err
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
	if spec, _ := podSpecOf(co); spec != nil && (hasRefs(spec) || hasClaimTemplates(co)) {
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
		m, err := c.podsMissing(ctx, obj)
		if err != nil {
			return fmt.Errorf("restore simulated cluster %s: %w", c.key, err)
		}
		if m == nil {
			delete(c.waiting, ref)
		}
	}
	return nil
}

// inEveryNamespace reports whether name is an object of obj's kind that
// kube-controller-manager keeps in every namespace of a real cluster, which
// a simulated one does not create: the ServiceAccount default, and the
// ConfigMap kube-root-ca.crt with its one key ca.crt (root-ca-cert-publisher;
// charts mount it in projected token volumes). It fills obj in as such.
func inEveryNamespace(obj client.Object, name string) bool {
	switch o := obj.(type) {
	case *corev1.ServiceAccount:
		return name == "default"
	case *corev1.ConfigMap:
		if name == "kube-root-ca.crt" {
			o.Data = map[string]string{"ca.crt": ""}
			return true
		}
	}
	return false
}
