package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestObjectSizeHint: an item whose object etcd or kube-apiserver refused
// as too large is told the limits and what makes such objects small; other
// failures get no hint.
func TestObjectSizeHint(t *testing.T) {
	item := func(msg string) *lsv1alpha1.DeployItem {
		di := failedItem(lsv1alpha1.DeployItemPhases.Failed, `timeout at: "manifest deployer: start reconcile"`)
		di.Status.FirstError = &lsv1alpha1.Error{Message: msg}
		return di
	}
	for _, tc := range []struct {
		name, msg string
		wants     []string
	}{
		{"etcd", "unable to update resource /prometheuses.monitoring.coreos.com: etcdserver: request is too large",
			[]string{"DeployItem laas/shoot: the API server refused prometheuses.monitoring.coreos.com as too large", "1.5 MiB", "maxDescLen=0"}},
		{"body", "unable to create resource default/big: Request entity too large: limit is 3145728",
			[]string{"refused default/big as too large", "3 MiB"}},
		{"another failure", "unable to create resource default/big: connection refused", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := objectSizeHint(item(tc.msg))
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
}
