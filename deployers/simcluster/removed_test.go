package simcluster

import "testing"

// TestRemovedIn: the built-in group versions Kubernetes stopped serving are
// named with the release that removed them, from the table the simulated
// clusters serve by; served, never-default and unknown ones are not.
func TestRemovedIn(t *testing.T) {
	for gv, want := range map[string]string{
		"apiregistration.k8s.io/v1beta1":                      "v1.22",
		"policy/v1beta1":                                      "v1.25",
		"batch/v1beta1":                                       "v1.25",
		"extensions/v1beta1":                                  "v1.22",
		"policy/v1beta1, Kind=PodSecurityPolicy":              "v1.25",
		"apps/v1":                                             "",
		"apiregistration.k8s.io/v1":                           "",
		"admissionregistration.k8s.io/v1alpha1":               "",
		"core.gardener.cloud/v1beta1":                         "",
		"core.gardener.cloud/v1beta1, Kind=CloudProfile":      "",
		"not a group version/at all/really, Kind=Nothing/x/y": "",
	} {
		if got := RemovedIn(gv); got != want {
			t.Errorf("RemovedIn(%q) = %q, want %q", gv, got, want)
		}
	}
}

// TestRemovedInGoneFromClientGo: a removed version whose types client-go no
// longer has (so the table has no span for it) is still named with its
// release, and no simulated cluster can serve it at any release;
// vasu1124/introspect's chart renders an autoscaling/v2beta2
// HorizontalPodAutoscaler.
func TestRemovedInGoneFromClientGo(t *testing.T) {
	for what, want := range map[string]string{
		"autoscaling/v2beta2, Kind=HorizontalPodAutoscaler":           "v1.26",
		"autoscaling/v2beta1":                                         "v1.25",
		"apiextensions.k8s.io/v1beta1, Kind=CustomResourceDefinition": "v1.22",
	} {
		if got := RemovedIn(what); got != want {
			t.Errorf("RemovedIn(%q) = %q, want %q", what, got, want)
		}
		if !ServedByNoRelease(what) {
			t.Errorf("ServedByNoRelease(%q) = false, want true", what)
		}
	}
	for _, what := range []string{"policy/v1beta1", "apps/v1", "core.gardener.cloud/v1beta1"} {
		if ServedByNoRelease(what) {
			t.Errorf("ServedByNoRelease(%q) = true, want false", what)
		}
	}
}
