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
