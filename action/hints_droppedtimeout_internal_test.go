package action

import (
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestDroppedTimeoutHint: an item that timed out and sets timeout fields
// Landscaper removed (readinessChecks.timeout, custom checks' and exports'
// timeouts) is told they were dropped and which timeout applied; items
// without them, and failures of another kind, get no hint.
func TestDroppedTimeoutHint(t *testing.T) {
	readiness := `timeout at: "deployer: during readiness check - resource kube-system/vpa of type Deployment"`
	item := func(config string, timeout *lsv1alpha1.Duration, reason string) *lsv1alpha1.DeployItem {
		di := failedItem(lsv1alpha1.DeployItemPhases.Failed, readiness)
		di.Status.LastError.Reason = reason
		di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(config)}
		di.Spec.Timeout = timeout
		return di
	}
	progressing := lsv1alpha1.ProgressingTimeoutReason
	for _, tc := range []struct {
		name  string
		item  *lsv1alpha1.DeployItem
		wants []string
	}{
		{"readiness timeout, default item timeout", item(`{"readinessChecks":{"timeout":"3m"}}`, nil, progressing),
			[]string{"DeployItem laas/shoot: its configuration sets readinessChecks.timeout (3m), which Landscaper's deployers no longer have",
				"spec.timeout is not set: the default, 10m0s", "deployItems[].timeout"}},
		{"all four, item timeout set", item(`{"readinessChecks":{"timeout":"1m","custom":[{"name":"crd","timeout":"2m"}]},"exports":{"defaultTimeout":"4m","exports":[{"key":"ip","timeout":"5m"}]}}`,
			&lsv1alpha1.Duration{Duration: 20 * time.Minute}, progressing),
			[]string{"readinessChecks.timeout (1m), readinessChecks.custom[crd].timeout (2m), exports.defaultTimeout (4m), exports.exports[ip].timeout (5m)",
				"spec.timeout is 20m0s"}},
		{"no dropped field", item(`{"readinessChecks":{"disableDefault":true}}`, nil, progressing), nil},
		{"another failure", item(`{"readinessChecks":{"timeout":"3m"}}`, nil, "ApplyFailed"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := droppedTimeoutHint(tc.item)
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
