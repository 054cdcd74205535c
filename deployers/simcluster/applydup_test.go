package simcluster

import (
	"strings"
	"testing"
)

// TestApplyDuplicateKeys: a server-side apply (client.Apply) of a
// StatefulSet whose container repeats a port's number and protocol over a
// stored one is refused with kube-apiserver's 500 "failed to create typed
// patch object", as a patch of type apply is, not with the merge's
// internal error; a create stores it.
func TestApplyDuplicateKeys(t *testing.T) {
	got := applyOutcomes(t, newFixture(t).c, "default")
	want := []string{"", "", `500  failed to create typed patch object (NS/applied; apps/v1, Kind=StatefulSet): .spec.template.spec.containers[name="c"].ports: duplicate entries for key [containerPort=9000,protocol="TCP"]`}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) || want[i] == "" && got[i] != "" {
			t.Errorf("step %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
