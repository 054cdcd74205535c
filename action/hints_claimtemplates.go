package action

import (
	"fmt"
	"regexp"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// claimTemplatesRefused matches kube-apiserver's refusal of a StatefulSet
// update that changes spec.volumeClaimTemplates (ValidateStatefulSetUpdate;
// the simulated cluster's immutable.go): the manifest applier's
// "unable to update resource NS/NAME:" when it precedes it, and the
// StatefulSet's name.
var claimTemplatesRefused = regexp.MustCompile(`(?:resource (\S+): )?StatefulSet\.apps "([^"]+)" is invalid: ` +
	`spec\.volumeClaimTemplates: Invalid value: `)

// claimTemplatesHint says, for a deploy item that failed because its
// manifests changed the volumeClaimTemplates of a StatefulSet (a chart's
// persistence size raised: Loki's singleBinary.persistence.size, a bitnami
// chart's primary.persistence.size), that they cannot change and the way
// charts document to grow the volumes: raise each claim's request, then
// delete the StatefulSet leaving its pods and claims, so that the next
// upgrade creates it with the new templates. A helm item's StatefulSet is
// taken to be in the release's namespace. It is empty for other items.
func claimTemplatesHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, claimTemplatesRefused)
	if m == nil {
		return ""
	}
	key := refusedObjectKey(di, m[1], m[2]) // hints_otherrelease.go
	return fmt.Sprintf("DeployItem %s/%s: the volumeClaimTemplates of StatefulSet %s cannot change: kube-apiserver "+
		"refuses the update, on a real cluster too, and every retry fails the same way. Keep the templates as they "+
		"were; or, to grow the volumes, raise the request of each claim the StatefulSet made (its StorageClass needs "+
		"allowVolumeExpansion: true), delete the StatefulSet on the cluster leaving its pods and claims (kubectl "+
		"delete statefulset --cascade=orphan) and trigger the installation: the upgrade creates the StatefulSet with "+
		"the new templates, and it adopts the pods and claims", di.Namespace, di.Name, key)
}
