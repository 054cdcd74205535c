package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestTTLJobHint: a manifest item whose readiness check timed out on a Job
// of its manifests with ttlSecondsAfterFinished is told that the Job was
// deleted and what to change; a Job without a TTL, a timeout on another
// object, another deployer and another failure get no hint.
func TestTTLJobHint(t *testing.T) {
	const (
		onJob    = `timeout at: "deployer: during readiness check - resource ingress-nginx/admission-create of type Job"`
		withTTL  = `{"manifests":[{"policy":"manage","manifest":{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"admission-create","namespace":"ingress-nginx"},"spec":{"ttlSecondsAfterFinished":0}}}]}`
		withoutT = `{"manifests":[{"policy":"manage","manifest":{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"admission-create","namespace":"ingress-nginx"},"spec":{}}}]}`
		manifest = "landscaper.gardener.cloud/kubernetes-manifest"
	)
	item := func(typ lsv1alpha1.DeployItemType, config, msg string, phase lsv1alpha1.DeployItemPhase) *lsv1alpha1.DeployItem {
		di := failedItem(phase, msg)
		di.Spec.Type = typ
		di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(config)}
		return di
	}
	failed := lsv1alpha1.DeployItemPhases.Failed
	for _, tc := range []struct {
		name  string
		item  *lsv1alpha1.DeployItem
		wants []string
	}{
		{"job with ttl 0", item(manifest, withTTL, onJob, failed), []string{
			"DeployItem laas/shoot: its readiness check timed out on Job ingress-nginx/admission-create, which sets ttlSecondsAfterFinished: 0.",
			"every object the item applied exists", "A retry applies the Job again",
			"drop ttlSecondsAfterFinished from the Job's manifest, or move the Job into a deploy item of its own"}},
		{"job without ttl", item(manifest, withoutT, onJob, failed), nil},
		{"another job", item(manifest, strings.Replace(withTTL, "admission-create", "patch", 1), onJob, failed), nil},
		{"another kind", item(manifest, withTTL, strings.Replace(onJob, "type Job", "type Deployment", 1), failed), nil},
		{"helm item", item("landscaper.gardener.cloud/helm", withTTL, onJob, failed), nil},
		{"not failed", item(manifest, withTTL, onJob, lsv1alpha1.DeployItemPhases.Progressing), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ttlJobHint(tc.item)
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
