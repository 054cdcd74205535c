package action

import (
	"fmt"
	"regexp"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// immutableRefused matches kube-apiserver's refusal of an update that
// changes a field its update validation keeps (ValidateImmutableField's
// "field is immutable", the simulated cluster's immutable.go; or a CRD's
// CEL rule self == oldSelf whose message says "X is immutable", as the
// VolumeSnapshot's source; or "may not be changed in an update", a
// PriorityClass's value), as the manifest applier reports it ("unable
// to update resource NS/NAME:", or patch for updateStrategy patch): the
// kind with its group, the object's name and the first field refused.
var immutableRefused = regexp.MustCompile(`unable to (?:update|patch) resource (\S*): (\S+) "([^"]+)" is invalid: \[?([\w.\[\]-]+): ` +
	`(?:Invalid value: .*?: (?:field|\w+) is immutable\b|Forbidden: may not be changed in an update)`)

// immutableFieldHint says, for a manifest item that failed because its
// manifests changed a field of an object that kube-apiserver keeps (a CSI
// driver's CSIDriver whose volumeLifecycleModes a release changed, as
// csi-driver-nfs v4.2.0 did; a workload's selector; a StorageClass's
// parameters; a VolumeSnapshot's source claim), that every retry fails the same way, on a real cluster too,
// and how the object is created anew: deleted on the cluster, or through
// Landscaper by a deployment without it (the deployer deletes an object it
// no longer has, unless its policy is keep or ignore) and one with it
// again. A StatefulSet's volumeClaimTemplates have their own hint
// (hints_claimtemplates.go). It is empty for other items.
func immutableFieldHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, immutableRefused)
	if m == nil || failedItemMatch(di, claimTemplatesRefused) != nil {
		return ""
	}
	key, kind, name, path := m[1], m[2], m[3], m[4]
	del := "kubectl delete " + strings.ToLower(kind) + " " + name
	if ns, _, ok := strings.Cut(key, "/"); ok && ns != "" {
		del = "kubectl delete " + strings.ToLower(kind) + " -n " + ns + " " + name
	}
	return fmt.Sprintf("DeployItem %s/%s: %s of %s %s cannot change: kube-apiserver refuses the update, on a real "+
		"cluster too, and every retry fails the same way. Keep the field as it was; or create the object anew: delete "+
		"it on the cluster (%s) and trigger the installation, or, through Landscaper alone, trigger once with the "+
		"object left out of the item's manifests (after an apply without errors the manifest deployer deletes an "+
		"object it created and no longer has, unless its policy is keep or ignore) and once more with it. What the cluster made of the object goes "+
		"with it (a workload's pods, unless deleted with --cascade=orphan)", di.Namespace, di.Name, path, kind, strings.TrimPrefix(key, "/"), del)
}
