package action

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestRequestedVersions: the version a get --target argument names, as
// kubectl reads RESOURCE.VERSION.GROUP, a short name with a version and
// KIND.VERSION.GROUP; a resource without a version names none.
func TestRequestedVersions(t *testing.T) {
	m := meta.NewDefaultRESTMapper(nil)
	for _, v := range []string{"v1beta1", "v1alpha1"} {
		gv := schema.GroupVersion{Group: "opentelemetry.io", Version: v}
		m.AddSpecific(gv.WithKind("OpenTelemetryCollector"), gv.WithResource("opentelemetrycollectors"),
			gv.WithResource("opentelemetrycollector"), meta.RESTScopeNamespace)
	}
	shorts := map[string]schema.GroupResource{"otelcol": {Group: "opentelemetry.io", Resource: "opentelemetrycollectors"}}
	gk := schema.GroupKind{Group: "opentelemetry.io", Kind: "OpenTelemetryCollector"}
	for arg, want := range map[string]map[schema.GroupKind]string{
		"opentelemetrycollectors.v1alpha1.opentelemetry.io": {gk: "v1alpha1"},
		"otelcol.v1alpha1.opentelemetry.io":                 {gk: "v1alpha1"},
		"OpenTelemetryCollector.v1alpha1.opentelemetry.io":  {gk: "v1alpha1"},
		"opentelemetrycollectors.opentelemetry.io":          {},
		"otelcol": {},
	} {
		if got := requestedVersions(m, shorts, []ClusterRequest{{Resource: arg}}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: versions = %v, want %v", arg, got, want)
		}
	}
}

// TestPreferredVersion: a kind asked for without a version is read in its
// highest served version by version.CompareKubeAwareVersionStrings, as
// kubectl reads it in its group's preferred version, whichever version it
// is stored in.
func TestPreferredVersion(t *testing.T) {
	m := meta.NewDefaultRESTMapper(nil)
	add := func(group, kind, resource string, versions ...string) {
		for _, v := range versions {
			gv := schema.GroupVersion{Group: group, Version: v}
			m.AddSpecific(gv.WithKind(kind), gv.WithResource(resource), gv.WithResource(resource[:len(resource)-1]), meta.RESTScopeNamespace)
		}
	}
	add("autoscaling", "HorizontalPodAutoscaler", "horizontalpodautoscalers", "v1", "v2")
	add("example.dev", "Gadget", "gadgets", "v1alpha1", "v1beta2", "v1", "v1beta1")
	add("apps", "Deployment", "deployments", "v1")
	for stored, want := range map[schema.GroupVersionKind]string{
		{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscaler"}: "v2",
		{Group: "example.dev", Version: "v1beta1", Kind: "Gadget"}:             "v1",
		{Group: "apps", Version: "v1", Kind: "Deployment"}:                     "v1",
	} {
		if got := preferredVersion(m, stored); got != want {
			t.Errorf("%s: preferred %s, want %s", stored, got, want)
		}
	}
}
