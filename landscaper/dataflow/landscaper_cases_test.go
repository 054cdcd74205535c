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
