package action

import (
	"encoding/json"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	batchv1 "k8s.io/api/batch/v1"
)

// ttlJobHint says, for a manifest item whose readiness check timed out on a
// Job of its own manifests that sets ttlSecondsAfterFinished, why: the
// TTL-after-finished controller deleted the finished Job, and Landscaper's
// manifest deployer needs every object it applied to exist
// (FailOnMissingObject, pkg/deployer/manifest/ensure.go), so the check
// cannot pass once the Job is gone while another object of the item still
// gets ready. ingress-nginx's static manifest is the common case: its
// certgen Jobs (TTL 0) write the Secret the controller mounts, whose pods
// start only after them. The default check reads a Job only for its
// existence, so a timeout on one means it was missing. It is empty for
// other items.
func ttlJobHint(di *lsv1alpha1.DeployItem) string {
	le := di.Status.LastError
	if le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed ||
		di.Spec.Type != "landscaper.gardener.cloud/kubernetes-manifest" {
		return ""
	}
	m := readinessObjectTimeout.FindStringSubmatch(le.Message)
	if m == nil || m[3] != "Job" {
		return ""
	}
	cfg, ok := manifestConfigOf(di)
	if !ok {
		return ""
	}
	for _, mf := range cfg.Manifests {
		var job batchv1.Job
		if mf.Manifest == nil || json.Unmarshal(mf.Manifest.Raw, &job) != nil || job.Kind != "Job" ||
			job.Namespace != m[1] || job.Name != m[2] || job.Spec.TTLSecondsAfterFinished == nil {
			continue
		}
		return fmt.Sprintf("DeployItem %s/%s: its readiness check timed out on Job %s/%s, which sets "+
			"ttlSecondsAfterFinished: %d. Kubernetes deletes the Job that many seconds after it finished, and "+
			"Landscaper's manifest deployer checks that every object the item applied exists, so the check cannot "+
			"pass once the Job is gone while another object of the item is not ready yet (pods that need what the Job "+
			"writes start after it, on a real cluster too). A retry applies the Job again and passes while it runs, "+
			"once the rest is ready. To pass the first time, drop ttlSecondsAfterFinished from the Job's manifest, or "+
			"move the Job into a deploy item of its own that this one depends on",
			di.Namespace, di.Name, m[1], m[2], *job.Spec.TTLSecondsAfterFinished)
	}
	return ""
}
