package simcluster

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// admit does to an object being stored what a real API server's
// conversion and defaulting do where deployed charts and readiness checks
// notice: a Secret's stringData is merged into data (stringData wins) and
// dropped; a Namespace gets the label kubernetes.io/metadata.name, the
// finalizer "kubernetes" in spec.finalizers and phase Active; a
// Deployment, StatefulSet, ReplicaSet or ReplicationController without
// spec.replicas gets 1 (charts leave it out when an autoscaler owns it).
func admit(obj runtime.Object) {
	switch o := obj.(type) {
	case *corev1.Secret:
		mergeStringData(o)
	case *corev1.Namespace:
		defaultNamespace(o)
	case *appsv1.Deployment:
		defaultReplicas(&o.Spec.Replicas)
	case *appsv1.StatefulSet:
		defaultReplicas(&o.Spec.Replicas)
	case *appsv1.ReplicaSet:
		defaultReplicas(&o.Spec.Replicas)
	case *corev1.ReplicationController:
		defaultReplicas(&o.Spec.Replicas)
	case *unstructured.Unstructured:
		admitUnstructured(o)
	}
}

// defaultReplicas sets *r to 1 when it is unset.
func defaultReplicas(r **int32) {
	if *r == nil {
		one := int32(1)
		*r = &one
	}
}

// mergeStringData moves stringData into data.
func mergeStringData(s *corev1.Secret) {
	if len(s.StringData) == 0 {
		s.StringData = nil
		return
	}
	if s.Data == nil {
		s.Data = make(map[string][]byte, len(s.StringData))
	}
	for k, v := range s.StringData {
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
}

// defaultNamespace sets what the API server sets on every Namespace.
func defaultNamespace(ns *corev1.Namespace) {
	labels := ns.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[corev1.LabelMetadataName] = ns.Name
	ns.SetLabels(labels)
	if len(ns.Spec.Finalizers) == 0 {
		ns.Spec.Finalizers = []corev1.FinalizerName{corev1.FinalizerKubernetes}
	}
	if ns.Status.Phase == "" {
		ns.Status.Phase = corev1.NamespaceActive
	}
}

// admitUnstructured admits a built-in kind that reached the store
// unstructured, through its Go type.
func admitUnstructured(u *unstructured.Unstructured) {
	var typed runtime.Object
	switch u.GroupVersionKind() {
	case corev1.SchemeGroupVersion.WithKind("Secret"):
		typed = &corev1.Secret{}
	case corev1.SchemeGroupVersion.WithKind("Namespace"):
		typed = &corev1.Namespace{}
	case appsv1.SchemeGroupVersion.WithKind("Deployment"):
		typed = &appsv1.Deployment{}
	default:
		return
	}
	if runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed) != nil {
		return
	}
	admit(typed)
	if m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed); err == nil {
		gvk := u.GroupVersionKind()
		u.Object = m
		u.SetGroupVersionKind(gvk)
	}
}
