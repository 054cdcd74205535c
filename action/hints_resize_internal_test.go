package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestResizeHint: an item refused because its claim's request grew is told
// what a claim needs to grow (allowVolumeExpansion) or, for a claim not
// bound yet, to wait for the binding; other refusals get no hint.
func TestResizeHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	item := func(msg string) *lsv1alpha1.DeployItem {
		di := failedItem(failed, `timeout at: "manifest deployer: start reconcile"`)
		di.Status.FirstError = &lsv1alpha1.Error{Message: msg}
		return di
	}
	const prefix = `unable to update resource default/data: persistentvolumeclaims "data" is forbidden: `
	for _, tc := range []struct {
		name, msg string
		wants     []string
	}{
		{"class does not allow", prefix + "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize",
			[]string{"DeployItem laas/shoot: its manifest raises the storage request of PersistentVolumeClaim default/data", "allowVolumeExpansion: true"}},
		{"not bound", prefix + "Only bound persistent volume claims can be expanded",
			[]string{"PersistentVolumeClaim default/data, which is not Bound yet", "Keep the request until the claim is bound"}},
		{"another refusal", prefix + "exceeded quota: q", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := resizeHint(item(tc.msg))
			if tc.wants == nil && got != "" {
				t.Fatalf("hint = %q, want none", got)
			}
			for _, w := range tc.wants {
				if !strings.Contains(got, w) {
					t.Errorf("hint = %q, want it to contain %q", got, w)
				}
			}
		})
	}
	if got := resizeHint(failedItem(lsv1alpha1.DeployItemPhases.Succeeded, prefix+"Only bound persistent volume claims can be expanded")); got != "" {
		t.Errorf("succeeded item: hint = %q, want none", got)
	}
}
