package simcluster

import (
	"reflect"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// builtinStatusKinds are the built-in kinds (every version) with a status
// subresource, read from client-go's typed clientsets as scope.go reads
// scopes: their resource clients have UpdateStatus, as the generator made
// them from the API's markers.
var builtinStatusKinds = sync.OnceValue(func() map[schema.GroupVersionKind]bool {
	out := map[schema.GroupVersionKind]bool{}
	for client := range resourceClients(builtinClientsets()...) {
		if _, ok := client.MethodByName("UpdateStatus"); !ok {
			continue
		}
		if gvk, ok := kindOfClient(builtin(), client); ok {
			out[gvk] = true
		}
	}
	for _, gvk := range apiServiceStatusKinds() {
		out[gvk] = true
	}
	return out
})

// builtinStatusObjects returns an object of each of builtinStatusKinds,
// for the fake client's WithStatusSubresource.
func builtinStatusObjects() []client.Object {
	var out []client.Object
	for gvk := range builtinStatusKinds() {
		if o, err := newBuiltin(gvk); err == nil {
			if co, ok := o.(client.Object); ok {
				out = append(out, co)
			}
		}
	}
	return out
}

// hasStatusSubresource reports whether objects of gvk have the status
// subresource: a built-in kind that has one, or a custom resource whose
// CRD declares it.
func (t *tracker) hasStatusSubresource(gvk schema.GroupVersionKind) bool {
	return builtinStatusKinds()[gvk] || t.hasStatus != nil && t.hasStatus(gvk)
}

// clearStatus drops the status a client sent with a create of obj, of a
// kind with the status subresource, as kube-apiserver's strategies do
// (PrepareForCreate; initialStatus then sets what they set). An update
// keeps the stored status (the fake client copies it, as PrepareForUpdate
// does); only a write of the status subresource changes it.
func clearStatus(obj runtime.Object) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		delete(u.Object, "status")
		return
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return
	}
	if f := v.Elem().FieldByName("Status"); f.IsValid() && f.CanSet() {
		f.Set(reflect.Zero(f.Type()))
	}
}

// initialStatus sets the status kube-apiserver's strategies give a new
// object where the client sent none: a Pod is Pending with its QoS class,
// a PersistentVolumeClaim or PersistentVolume Pending (a Namespace's phase
// Active is admit's).
func initialStatus(obj runtime.Object) {
	switch o := obj.(type) {
	case *corev1.Pod:
		if o.Status.Phase == "" {
			o.Status.Phase = corev1.PodPending
		}
		if o.Status.QOSClass == "" {
			o.Status.QOSClass = podQOS(&o.Spec)
		}
	case *corev1.PersistentVolumeClaim:
		if o.Status.Phase == "" {
			o.Status.Phase = corev1.ClaimPending
		}
	case *corev1.PersistentVolume:
		if o.Status.Phase == "" {
			o.Status.Phase = corev1.VolumePending
		}
	}
}

// podQOS is the QoS class of a pod spec, as kube-apiserver's
// pkg/apis/core/helper/qos computes it: from the pod-level resources when
// they name cpu or memory, else from its containers' (init ones included);
// BestEffort without requests and limits, Guaranteed when requests equal
// non-zero limits for cpu and memory, else Burstable.
func podQOS(s *corev1.PodSpec) corev1.PodQOSClass {
	if r := s.Resources; r != nil {
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			_, req := r.Requests[name]
			_, lim := r.Limits[name]
			if req || lim {
				return requirementsQOS(r)
			}
		}
	}
	var class corev1.PodQOSClass
	for _, cs := range [][]corev1.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			c := requirementsQOS(&cs[i].Resources)
			switch {
			case c == corev1.PodQOSBurstable:
				return c
			case class == "":
				class = c
			case class != c:
				return corev1.PodQOSBurstable
			}
		}
	}
	if class == "" {
		return corev1.PodQOSBestEffort
	}
	return class
}

// requirementsQOS is the QoS class of one set of resource requirements.
func requirementsQOS(r *corev1.ResourceRequirements) corev1.PodQOSClass {
	if len(r.Requests) == 0 && len(r.Limits) == 0 {
		return corev1.PodQOSBestEffort
	}
	var class corev1.PodQOSClass
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, lim := r.Requests[name], r.Limits[name]
		c := corev1.PodQOSGuaranteed
		switch {
		case !req.Equal(lim):
			return corev1.PodQOSBurstable
		case req.IsZero():
			c = corev1.PodQOSBestEffort
		}
		if class == "" {
			class = c
		} else if class != c {
			return corev1.PodQOSBurstable
		}
	}
	return class
}
