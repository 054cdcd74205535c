package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestImmutableFieldHint: a manifest item whose update kube-apiserver
// refused for a field it keeps (csi-driver-nfs v4.2.0's CSIDriver without
// the Ephemeral lifecycle mode) is told that retries fail the same way
// and how to create the object anew; a namespaced object's delete command
// names its namespace; a CRD's CEL rule that says "X is immutable" (the
// VolumeSnapshot's source, refused to a patch) gets it too; the volumeClaimTemplates of a StatefulSet, other
// errors and items that did not fail get no hint. A PriorityClass's
// value, which kube-apiserver forbids to change, gets it too.
func TestImmutableFieldHint(t *testing.T) {
	failed := lsv1alpha1.DeployItemPhases.Failed
	csi := `unable to update resource /nfs.csi.k8s.io: CSIDriver.storage.k8s.io "nfs.csi.k8s.io" is invalid: ` +
		`spec.volumeLifecycleModes: Invalid value: ["Persistent"]: field is immutable`
	got := immutableFieldHint(failedItem(failed, csi))
	for _, w := range []string{
		"DeployItem laas/shoot: spec.volumeLifecycleModes of CSIDriver.storage.k8s.io nfs.csi.k8s.io cannot change",
		"on a real cluster too",
		"(kubectl delete csidriver.storage.k8s.io nfs.csi.k8s.io)",
		"left out of the item's manifests",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	deploy := `unable to update resource kube-flannel/web: Deployment.apps "web" is invalid: [spec.selector: Invalid value: ` +
		`{"matchLabels":{"app":"b"}}: field is immutable, spec.template.metadata.labels: Invalid value: {"app":"a"}: ` +
		"`selector` does not match template `labels`]"
	if got := immutableFieldHint(failedItem(failed, deploy)); !strings.Contains(got, "spec.selector of Deployment.apps kube-flannel/web cannot change") ||
		!strings.Contains(got, "kubectl delete deployment.apps -n kube-flannel web") {
		t.Errorf("deployment: hint = %q", got)
	}
	snapshot := `unable to patch resource default/data-snapshot: VolumeSnapshot.snapshot.storage.k8s.io "data-snapshot" is invalid: ` +
		`spec.source.persistentVolumeClaimName: Invalid value: "data-2": persistentVolumeClaimName is immutable`
	if got := immutableFieldHint(failedItem(failed, snapshot)); !strings.Contains(got, "spec.source.persistentVolumeClaimName of "+
		"VolumeSnapshot.snapshot.storage.k8s.io default/data-snapshot cannot change") {
		t.Errorf("CEL rule: hint = %q", got)
	}
	// ValidatePriorityClassUpdate forbids a new value instead of calling
	// it immutable.
	priority := `unable to update resource /workflow-controller: PriorityClass.scheduling.k8s.io "workflow-controller" is invalid: ` +
		`value: Forbidden: may not be changed in an update.`
	if got := immutableFieldHint(failedItem(failed, priority)); !strings.Contains(got, "value of PriorityClass.scheduling.k8s.io "+
		"workflow-controller cannot change") || !strings.Contains(got, "(kubectl delete priorityclass.scheduling.k8s.io workflow-controller)") {
		t.Errorf("forbidden: hint = %q", got)
	}
	for name, di := range map[string]*lsv1alpha1.DeployItem{
		"claim templates": failedItem(failed, `unable to update resource db/pg: StatefulSet.apps "pg" is invalid: spec.volumeClaimTemplates: Invalid value: []: field is immutable`),
		"other error":     failedItem(failed, `unable to update resource db/pg: Service "pg" is invalid: spec.ports[0].port: Invalid value: 0: must be between 1 and 65535`),
		"succeeded":       failedItem(lsv1alpha1.DeployItemPhases.Succeeded, csi),
	} {
		if got := immutableFieldHint(di); got != "" {
			t.Errorf("%s: hint = %q, want none", name, got)
		}
	}
}
