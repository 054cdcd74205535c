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
	if !ok || s.removed == 0 || s.since == notByDefault {
		return ""
	}
	return fmt.Sprintf("v1.%d", s.removed)
}
