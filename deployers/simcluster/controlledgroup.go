package simcluster

import "k8s.io/apimachinery/pkg/runtime/schema"

// HasGroupKindController reports whether a fake controller fills in the
// status of objects of gk: unlike HasController, a Knative Service
// (serving.knative.dev) is not a core Service.
func HasGroupKindController(gk schema.GroupKind) bool {
	for gvk := range fillers {
		if gvk.GroupKind() == gk {
			return true
		}
	}
	return false
}
