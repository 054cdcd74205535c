package dataflow

import (
	"context"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The tests of this file follow cases of Landscaper's own unit tests and
// code paths (pkg/landscaper/installations/...), with their inputs and
// expected results.

// Landscaper's context of an installation comes from its owner references
// alone (GetInstallationContextName, IsRootInstallation: any owner
// reference of kind Installation, controller or not); the encompassed-by
// label plays no part.
func TestContextComesFromOwnerReferences(t *testing.T) {
	c := newCluster(t, "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: DataObject\nmetadata: {name: cfg}\ndata: hello")
	labelled := installation(t, c, "labelled", "imports: {data: [{name: in, dataRef: cfg}]}",
		blueprintImports("- {name: in, schema: {type: string}}"))
	labelled.Labels = map[string]string{lsv1alpha1.EncompassedByLabel: "other"}
	if err := c.Update(context.Background(), labelled); err != nil {
		t.Fatal(err)
	}
	if !IsRoot(labelled) || ContextOf(labelled) != "" || ParentName(labelled) != "" {
		t.Errorf("label only: root %v, context %q, parent %q; want a root of context \"\"",
			IsRoot(labelled), ContextOf(labelled), ParentName(labelled))
	}
	if got := toJSON(resolve(t, c, labelled).Values); got != `{"in":"hello"}` {
		t.Errorf("imports = %s, want the root DataObject cfg", got)
	}

	owned := &lsv1alpha1.Installation{}
	ref := ControllerRef(labelled, "Installation")
	ref.Controller = nil
	owned.OwnerReferences = []metav1.OwnerReference{ref}
	if IsRoot(owned) || ContextOf(owned) != "Inst.labelled" {
		t.Errorf("owned without controller: root %v, context %q; want a subinstallation of context Inst.labelled",
			IsRoot(owned), ContextOf(owned))
	}
	other := &lsv1alpha1.Installation{}
	other.OwnerReferences = []metav1.OwnerReference{{APIVersion: "example.com/v1", Kind: "Installation", Name: "x"}}
	if !IsRoot(other) || ContextOf(other) != "" {
		t.Errorf("owned by another group's Installation: root %v, context %q; want a root", IsRoot(other), ContextOf(other))
	}
}

// Landscaper's CleanupContext deletes the objects of an old job only when
// at least one object of the context carries a job ID label
// (utils.CheckIfNewContextDeletion): objects without one are kept then.
func TestCleanupContextNeedsAJobIDLabel(t *testing.T) {
	c := newCluster(t, `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: manual, labels: {data.landscaper.gardener.cloud/context: Inst.i, data.landscaper.gardener.cloud/key: k}}
data: 1
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: manual-target, labels: {data.landscaper.gardener.cloud/context: Inst.i, data.landscaper.gardener.cloud/key: t}}
spec: {type: x/y, config: {}}`)
	inst := installation(t, c, "i", "{}", blueprintImports(""))
	if err := CleanupContext(context.Background(), c, inst); err != nil {
		t.Fatal(err)
	}
	get(t, c, "manual", &lsv1alpha1.DataObject{})
	get(t, c, "manual-target", &lsv1alpha1.Target{})

	// One object with a job ID label: all of an old job go, also those
	// without the label.
	do := decodeObject(t, "kind: DataObject\nmetadata: {name: labelled, labels: {data.landscaper.gardener.cloud/context: Inst.i, data.landscaper.gardener.cloud/jobid: job-0}}\ndata: 2")
	create(t, c, do)
	if err := CleanupContext(context.Background(), c, inst); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"manual", "labelled"} {
		if err := c.Get(context.Background(), key(name), &lsv1alpha1.DataObject{}); !isNotFound(err) {
			t.Errorf("DataObject %s was kept: %v", name, err)
		}
	}
	if err := c.Get(context.Background(), key("manual-target"), &lsv1alpha1.Target{}); !isNotFound(err) {
		t.Errorf("Target manual-target was kept: %v", err)
	}
}

// A root's targetListRef and targetMapRef select Targets without a context
// label (GetTargetListImportBySelector: the label must not exist, so an
// empty value does not do).
func TestRootTargetListRefNeedsNoContextLabel(t *testing.T) {
	c := newCluster(t, `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: a, labels: {data.landscaper.gardener.cloud/key: clusters, data.landscaper.gardener.cloud/sourceType: import}}
spec: {type: x/y, config: a}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: b, labels: {data.landscaper.gardener.cloud/key: clusters, data.landscaper.gardener.cloud/sourceType: import, data.landscaper.gardener.cloud/context: ""}}
spec: {type: x/y, config: b}`)
	inst := installation(t, c, "i", "imports: {targets: [{name: l, targetListRef: clusters}]}",
		blueprintImports("- {name: l, type: targetList, targetType: x/y}"))
	list := resolve(t, c, inst).Values["l"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["metadata"].(map[string]any)["name"] != "a" {
		t.Errorf("targetListRef = %s, want Target a only", toJSON(list))
	}
}
