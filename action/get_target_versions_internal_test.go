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
