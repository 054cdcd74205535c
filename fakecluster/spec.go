package fakecluster

import (
	"reflect"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// coreKindsWithGeneration are the core/v1 kinds whose registry strategy in
// kube-apiserver keeps metadata.generation (k8s.io/kubernetes pkg/registry:
// PrepareForCreate sets it, PrepareForUpdate moves it on a spec change).
// The others (ConfigMap, Secret, Namespace, Service, ServiceAccount, ...)
// have none: it stays 0.
var coreKindsWithGeneration = map[string]bool{"Pod": true, "PodTemplate": true, "ReplicationController": true}

// HasGeneration reports whether objects of kind gk have a
// metadata.generation: Landscaper's kinds, custom resources all, do (1 on
// create, one more for every change of the spec, and when marked for
// deletion); of the core/v1 kinds, only those kube-apiserver keeps one for.
func HasGeneration(gk schema.GroupKind) bool {
	return gk.Group != "" || coreKindsWithGeneration[gk.Kind]
}

// SpecEqual reports whether a and b, of the same type, have the same spec:
// every field but TypeMeta, ObjectMeta and Status. It is what decides whether
// an update bumps metadata.generation.
func SpecEqual(a, b Object) bool {
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	return !specChanged(a, b)
}

// CopySpec sets the spec fields of dst (every field but TypeMeta, ObjectMeta
// and Status) to deep copies of those of src. Both must be of the same type.
func CopySpec(dst, src Object) {
	fresh := structOf(src.DeepCopyObject().(Object))
	dv := structOf(dst)
	for _, i := range infoOf(dst).spec {
		dv.Field(i).Set(fresh.Field(i))
	}
}
