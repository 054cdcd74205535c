package simcluster

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Annotations that mark a StorageClass as the cluster's default
// (kubernetes pkg/volume/util IsDefaultStorageClassAnnotation and its beta
// name).
const (
	defaultClassAnnotation     = "storageclass.kubernetes.io/is-default-class"
	betaDefaultClassAnnotation = "storageclass.beta.kubernetes.io/is-default-class"
)

// defaultClaimClass does what kube-apiserver's DefaultStorageClass
// admission plugin does to a PersistentVolumeClaim being created that asks
// for no class (no spec.storageClassName and no beta class annotation): it
// sets spec.storageClassName to the default StorageClass, the one annotated
// is-default-class "true", the newest when several are (then by name),
// as pkg/volume/util GetDefaultClass picks it. Without a default class the
// claim is left as it is. obj is typed or unstructured; other kinds are
// left alone.
func (t *tracker) defaultClaimClass(obj runtime.Object) error {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		if u.GroupVersionKind() != corev1.SchemeGroupVersion.WithKind("PersistentVolumeClaim") {
			return nil
		}
		return changeAsTyped(u, t.defaultClaimClass) // admit.go
	}
	pvc, ok := obj.(*corev1.PersistentVolumeClaim)
	if !ok || claimAsksForClass(pvc) {
		return nil
	}
	name, err := t.defaultClassName()
	if err != nil || name == "" {
		return err
	}
	pvc.Spec.StorageClassName = &name
	return nil
}

// claimAsksForClass is pkg/apis/core/helper PersistentVolumeClaimHasClass:
// the beta annotation is there (even empty) or spec.storageClassName is set
// (even to "").
func claimAsksForClass(c *corev1.PersistentVolumeClaim) bool {
	if _, ok := c.Annotations[corev1.BetaStorageClassAnnotation]; ok {
		return true
	}
	return c.Spec.StorageClassName != nil
}

// defaultClassName is the name of the default StorageClass, "" when there
// is none.
func (t *tracker) defaultClassName() (string, error) {
	classes, err := storedList[storagev1.StorageClass](t.ObjectTracker, storageClassesResource, "StorageClass")
	if err != nil {
		return "", fmt.Errorf("the default class: %w", err)
	}
	return newestDefault(classes, isDefaultClass), nil
}

// isDefaultClass reports whether sc is annotated as a default class.
func isDefaultClass(sc *storagev1.StorageClass) bool {
	return sc.Annotations[defaultClassAnnotation] == "true" || sc.Annotations[betaDefaultClassAnnotation] == "true"
}
