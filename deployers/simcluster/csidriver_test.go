package simcluster

import (
	"strings"
	"testing"
)

// csiDriverA is a CSIDriver as csi-driver-nfs's deploy/csi-nfs-driverinfo.yaml
// declares it (SCNAME is replaced by the case's own name).
const csiDriverA = `apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: SCNAME}
spec:
  attachRequired: false
  volumeLifecycleModes: [Persistent]
  fsGroupPolicy: File
`

// csiDriverCases are writes of a CSIDriver whose answers kube-apiserver's
// ValidateCSIDriverUpdate decides (attachRequired and volumeLifecycleModes
// may not change, the other fields may), and of a PriorityClass, whose
// value and preemptionPolicy ValidatePriorityClassUpdate keeps.
var csiDriverCases = []immutableCase{
	{name: "csidriver attachRequired by update", create: csiDriverA, update: strings.Replace(csiDriverA, "attachRequired: false", "attachRequired: true", 1), method: "update",
		want: `422 Invalid CSIDriver.storage.k8s.io "immutable-sc-0" is invalid: spec.attachedRequired: Invalid value: true: field is immutable
cause FieldValueInvalid spec.attachedRequired: Invalid value: true: field is immutable`},
	{name: "csidriver attachRequired by apply", create: csiDriverA, update: strings.Replace(csiDriverA, "attachRequired: false", "attachRequired: true", 1), method: "apply",
		want: `422 Invalid CSIDriver.storage.k8s.io "immutable-sc-1" is invalid: spec.attachedRequired: Invalid value: true: field is immutable
cause FieldValueInvalid spec.attachedRequired: Invalid value: true: field is immutable`},
	{name: "csidriver volumeLifecycleModes", create: csiDriverA, update: strings.Replace(csiDriverA, "[Persistent]", "[Persistent, Ephemeral]", 1), method: "merge",
		want: `422 Invalid CSIDriver.storage.k8s.io "immutable-sc-2" is invalid: spec.volumeLifecycleModes: Invalid value: ["Persistent","Ephemeral"]: field is immutable
cause FieldValueInvalid spec.volumeLifecycleModes: Invalid value: ["Persistent","Ephemeral"]: field is immutable`},
	{name: "csidriver fsGroupPolicy and podInfoOnMount", create: csiDriverA, update: strings.Replace(csiDriverA, "fsGroupPolicy: File", "fsGroupPolicy: None\n  podInfoOnMount: true", 1), method: "update"},
	{name: "csidriver same manifest", create: csiDriverA, update: csiDriverA, method: "update"},
	{name: "priorityclass value", create: priorityClassA, update: strings.Replace(priorityClassA, "1000000", "2000000", 1), method: "update",
		want: `422 Invalid PriorityClass.scheduling.k8s.io "immutable-sc-5" is invalid: value: Forbidden: may not be changed in an update.
cause FieldValueForbidden value: Forbidden: may not be changed in an update.`},
	{name: "priorityclass preemptionPolicy", create: priorityClassA, update: priorityClassA + "preemptionPolicy: Never\n", method: "apply",
		want: `422 Invalid PriorityClass.scheduling.k8s.io "immutable-sc-6" is invalid: preemptionPolicy: Invalid value: "Never": field is immutable
cause FieldValueInvalid preemptionPolicy: Invalid value: "Never": field is immutable`},
	{name: "priorityclass description", create: priorityClassA, update: priorityClassA + "description: controller\n", method: "update"},
}

// priorityClassA is Argo Workflows' PriorityClass (SCNAME is replaced by
// the case's own name).
const priorityClassA = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: SCNAME}
value: 1000000
`

// TestCSIDriverImmutable writes each of csiDriverCases on a simulated
// cluster: a change of attachRequired (csi-driver-nfs's CSIDriver
// between releases) is refused as kube-apiserver refuses it.
func TestCSIDriverImmutable(t *testing.T) {
	for i, c := range csiDriverCases {
		c = named(c, i)
		f := immutableFixture(t)
		got := outcome(writeCase(t, f.c, "imm", c))
		if got != c.want {
			t.Errorf("%s:\ngot:  %s\nwant: %s", c.name, got, c.want)
		}
	}
}
