package installation

import (
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/landscaper/dataflow"
)

// TestSiblingsFollowOwnerReferences: as in Landscaper (GetSiblings), a
// subinstallation's siblings are the installations with an owner reference
// to the same parent (a controller reference or not), and a root's
// siblings the roots without the encompassed-by label; the label alone
// does not make an installation a subinstallation.
func TestSiblingsFollowOwnerReferences(t *testing.T) {
	f := newFixture(t)
	f.Create(inst("parent", status("", "", "")))
	parent := f.Installation("parent")
	f.Create(inst("producer", status("", "", ""), withOwner(parent), withExport("data")))
	ref := dataflow.ControllerRef(parent, "Installation")
	ref.Controller = nil
	f.Create(inst("consumer", status("", "", ""), withImport("data"), func(i *lsv1alpha1.Installation) {
		i.OwnerReferences = []metav1.OwnerReference{ref}
	}))
	preds, err := predecessors(f.Ctx, f.Cluster, f.Installation("consumer"))
	if err != nil {
		t.Fatal(err)
	}
	if len(preds) != 1 || preds[0].Name != "producer" {
		t.Errorf("predecessors of a subinstallation owned without controller reference = %v, want producer", names(preds))
	}

	f.Create(inst("root-producer", status("", "", ""), withExport("shared")))
	f.Create(inst("labelled", status("", "", ""), withImport("shared"), func(i *lsv1alpha1.Installation) {
		i.Labels = map[string]string{lsv1alpha1.EncompassedByLabel: "parent"}
	}))
	preds, err = predecessors(f.Ctx, f.Cluster, f.Installation("labelled"))
	if err != nil {
		t.Fatal(err)
	}
	if len(preds) != 1 || preds[0].Name != "root-producer" {
		t.Errorf("predecessors of a labelled root = %v, want root-producer", names(preds))
	}
	succs, err := successors(f.Ctx, f.Cluster, f.Installation("root-producer"))
	if err != nil {
		t.Fatal(err)
	}
	if len(succs) != 0 {
		t.Errorf("successors = %v, want none: a root with the encompassed-by label is no root's sibling", names(succs))
	}
}
