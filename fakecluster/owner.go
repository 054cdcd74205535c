package fakecluster

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ControllerOf is metav1.GetControllerOf without its copy: it returns the
// controller owner reference of obj from obj's own references, or nil. The
// caller must not change it. Finding an object's controller is on the path
// of nearly every change a simulation makes, and the copy was a few percent
// of a big run's allocations.
func ControllerOf(obj metav1.Object) *metav1.OwnerReference {
	refs := obj.GetOwnerReferences()
	for i := range refs {
		if c := refs[i].Controller; c != nil && *c {
			return &refs[i]
		}
	}
	return nil
}
