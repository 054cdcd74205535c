package simcluster

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// RemovedIn returns the Kubernetes release ("v1.25") that stopped serving
// what, a built-in group version ("policy/v1beta1") or one of its kinds
// ("policy/v1beta1, Kind=PodSecurityPolicy", as discovery errors name
// them), by the table the simulated clusters serve by (versions.go), or ""
// when what is served today, was never on by default, or is not built in
// (a CRD's group).
func RemovedIn(what string) string {
	gvText, kind, _ := strings.Cut(what, ", Kind=")
	gv, err := schema.ParseGroupVersion(gvText)
	if err != nil {
		return ""
	}
	s, ok := kindSpans[gv.WithKind(kind)]
	if !ok {
		s, ok = groupVersionSpans[gv]
	}
	if !ok {
		if removed, gone := goneFromClientGo[gv]; gone {
			return fmt.Sprintf("v1.%d", removed)
		}
	}
	if !ok || s.removed == 0 || s.since == notByDefault {
		return ""
	}
	return fmt.Sprintf("v1.%d", s.removed)
}

// goneFromClientGo are built-in group versions Kubernetes removed (the
// minor release that stopped serving them, from its deprecated API migration
// guide) whose types client-go's scheme no longer has: the table above has
// no span for them, and no simulated cluster serves them, whatever its
// release.
var goneFromClientGo = map[schema.GroupVersion]int{
	{Group: "apiextensions.k8s.io", Version: "v1beta1"}: 22,
	{Group: "autoscaling", Version: "v2beta1"}:          25,
	{Group: "autoscaling", Version: "v2beta2"}:          26,
}

// ServedByNoRelease reports whether what (as for RemovedIn) is a removed
// built-in version that no simulated cluster serves, even one of a release
// that Kubernetes served it in, because client-go no longer has its types.
func ServedByNoRelease(what string) bool {
	gvText, _, _ := strings.Cut(what, ", Kind=")
	gv, err := schema.ParseGroupVersion(gvText)
	if err != nil {
		return false
	}
	_, gone := goneFromClientGo[gv]
	_, known := groupVersionSpans[gv]
	return gone && !known
}
