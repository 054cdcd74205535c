package action

import (
	"fmt"
	"regexp"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// boundClaimRefused matches kube-apiserver's refusal of a write of a bound
// PersistentVolumeClaim that drops its spec.volumeName (the diff of the
// spec it prints names the volume): the object's key when the manifest
// applier's "unable to update resource NS/NAME:" precedes it, the claim's
// name and its volume.
var boundClaimRefused = regexp.MustCompile(`(?:resource (\S+): )?PersistentVolumeClaim "([^"]+)" is invalid: spec: Forbidden: ` +
	`spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n` +
	`(?s:.*?)- "VolumeName": "([^"]+)",\n\+ "VolumeName": ""`)

// boundClaimHint says, for a deploy item whose write of a bound claim was
// refused because its manifest does not carry the volumeName the
// PersistentVolume controller set when it bound the claim, that a real
// cluster refuses it too, and the ways out: Landscaper's manifest applier
// sends the manifest as written (updateStrategy update, or patch: a JSON
// merge patch from the live claim), helm's own upgrade
// (helmDeployment: true) and updateStrategy mergeOverwrite keep the
// volumeName (merge too, but it writes no changed value of the manifest),
// policy immutable never writes the claim again. It is empty for other
// items.
func boundClaimHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, boundClaimRefused)
	if m == nil {
		return ""
	}
	claim := m[2]
	if m[1] != "" {
		claim = m[1]
	}
	way := "add `volumeName: " + m[3] + "` to the claim's manifest, give it `policy: immutable` (Landscaper creates it " +
		"and never writes it again) or use `updateStrategy: mergeOverwrite` (the manifest's values are merged over the live " +
		"claim's and volumeName stays; `merge` keeps it too but writes none of the manifest's changed values), or let a " +
		"StatefulSet's volumeClaimTemplates create the claim"
	if renderedWithoutRelease(di) {
		way = "deploy the chart with helmDeployment: true (helm's upgrade patches the claim with the changes between " +
			"the releases' manifests and leaves volumeName alone), add `volumeName: " + m[3] + "` to the chart's claim, " +
			"or let a StatefulSet's volumeClaimTemplates create the claim"
	}
	return fmt.Sprintf("DeployItem %s/%s: PersistentVolumeClaim %s is bound to PersistentVolume %s: the "+
		"PersistentVolume controller set its spec.volumeName when it bound it, and the spec of a bound claim may not "+
		"change but for its storage request. The deployer writes the claim's manifest as written, without volumeName, "+
		"which a real cluster refuses as well (Landscaper's manifest applier sends the manifest as an update, or as a "+
		"merge patch from the live claim). To deploy the item again, %s",
		di.Namespace, di.Name, claim, m[3], way)
}
