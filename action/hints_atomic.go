package action

import (
	"fmt"
	"regexp"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// atomicTimeout matches helm's error for an atomic install (upgrade) whose
// wait timed out: the release was uninstalled (rolled back) afterwards.
var atomicTimeout = regexp.MustCompile(`release \S+ failed, and has been (uninstalled|rolled back) due to atomic being set: context deadline exceeded`)

// atomicHint says, for a helm item whose atomic install or upgrade timed
// out in helm's wait, that the objects it waited for are gone (atomic
// uninstalled or rolled back the release), so neither the cluster nor
// workloadHint can tell why they were not ready; it names the object helm's
// log last found not ready when the log (Landscaper keeps its last 10
// lines, which the deletions crowd) still has it, and says to run with
// wait instead to look at them. It is empty for other items.
func atomicHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, atomicTimeout)
	if m == nil {
		return ""
	}
	on := ""
	if nr := lastNotReady(append([]*lsv1alpha1.Error{di.Status.FirstError, di.Status.LastError}, di.Status.LastErrors...)); nr != nil {
		on = fmt.Sprintf(" on %s %s/%s", nr[1], nr[2], nr[3])
	}
	done, wait := "uninstalled the release", "install.wait"
	if m[1] == "rolled back" {
		done, wait = "rolled the release back", "upgrade.wait"
	}
	return fmt.Sprintf("DeployItem %s/%s: helm's wait (atomic implies it) timed out%s and atomic then %s, so the "+
		"objects it waited for are not on the cluster to look at. To see why they are not ready, deploy it with "+
		"helmDeploymentConfig %s instead of atomic: the objects stay, `lscli get --target` shows their status, and "+
		"lscli's hint names an object their pods wait for", di.Namespace, di.Name, on, done, wait)
}
