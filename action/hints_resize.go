package action

import (
	"fmt"
	"regexp"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// resizeRefused matches kube-apiserver's PersistentVolumeClaimResize
// admission refusing a claim whose storage request grew (a simulated
// cluster refuses it alike, deployers/simcluster immutable.go): the
// object's key when the manifest applier's "unable to update resource
// NS/NAME:" precedes it, the claim's name and why.
var resizeRefused = regexp.MustCompile(`(?:resource (\S+): )?persistentvolumeclaims "([^"]+)" is forbidden: ` +
	`(only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize|` +
	`Only bound persistent volume claims can be expanded)`)

// resizeHint says, for a deploy item that failed because its manifest
// raised the storage request of a claim that cannot grow, what a claim
// needs to grow and the ways out: raising a size import of a blueprint
// (local-path-provisioner's class local-path has no allowVolumeExpansion)
// gives this on a real cluster too. It is empty for other items.
func resizeHint(di *lsv1alpha1.DeployItem) string {
	m := failedItemMatch(di, resizeRefused)
	if m == nil {
		return ""
	}
	claim := m[2]
	if m[1] != "" {
		claim = m[1]
	}
	if m[3] == "Only bound persistent volume claims can be expanded" {
		return fmt.Sprintf("DeployItem %s/%s: its manifest raises the storage request of PersistentVolumeClaim %s, which "+
			"is not Bound yet (its StorageClass may bind on the first consumer), and kube-apiserver's "+
			"PersistentVolumeClaimResize admission lets only a bound claim grow, on a real cluster too. Keep the "+
			"request until the claim is bound, or delete the unbound claim so that the item creates it with the new "+
			"size", di.Namespace, di.Name, claim)
	}
	return fmt.Sprintf("DeployItem %s/%s: its manifest raises the storage request of PersistentVolumeClaim %s, and "+
		"kube-apiserver's PersistentVolumeClaimResize admission refuses it, on a real cluster too: a claim grows only "+
		"when its volume was provisioned for it and its StorageClass has allowVolumeExpansion: true. If the class's "+
		"provisioner can grow volumes (a CSI driver with the external-resizer can; rancher.io/local-path cannot), set "+
		"allowVolumeExpansion: true on the class (that field may change); else keep the request as it was, or delete "+
		"the claim, and its data, so that the item creates it anew", di.Namespace, di.Name, claim)
}
