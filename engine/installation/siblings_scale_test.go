package installation

import (
	"fmt"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestSiblingLookupsAreScoped: finding the predecessors and successors of an
// installation looks only at its siblings, however many other roots use the
// same dataRef names (as when one blueprint is rolled out many times).
func TestSiblingLookupsAreScoped(t *testing.T) {
	for _, roots := range []int{10, 200} {
		t.Run(fmt.Sprintf("roots=%d", roots), func(t *testing.T) {
			f := newFixture(t)
			var first *lsv1alpha1.Installation
			for r := range roots {
				parent := inst(fmt.Sprintf("root-%03d", r), status("", "", ""), withExport("shared"))
				f.Create(parent)
				parent = f.Installation(parent.Name)
				f.Create(inst(fmt.Sprintf("a-%03d", r), status("", "", ""), withOwner(parent), withExport("data")))
				f.Create(inst(fmt.Sprintf("b-%03d", r), status("", "", ""), withOwner(parent), withImport("data")))
				f.Create(inst(fmt.Sprintf("user-%03d", r), status("", "", ""), withImport("shared")))
				if r == 0 {
					first = f.Installation("b-000")
				}
			}
			before := f.Cluster.Visited()
			preds, err := predecessors(f.Ctx, f.Cluster, first)
			if err != nil {
				t.Fatal(err)
			}
			succs, err := successors(f.Ctx, f.Cluster, f.Installation("a-000"))
			if err != nil {
				t.Fatal(err)
			}
			if len(preds) != 1 || preds[0].Name != "a-000" || len(succs) != 1 || succs[0].Name != "b-000" {
				t.Fatalf("predecessors %v, successors %v; want a-000 and b-000", names(preds), names(succs))
			}
			if visited := f.Cluster.Visited() - before; visited > 2 {
				t.Errorf("two sibling lookups looked at %d objects among %d roots; want at most 2", visited, roots)
			}
			before = f.Cluster.Visited()
			if _, err := successors(f.Ctx, f.Cluster, f.Installation("root-000")); err != nil {
				t.Fatal(err)
			}
			if visited := f.Cluster.Visited() - before; visited > uint64(roots) {
				t.Errorf("a root's successors looked at %d objects; want at most the %d importing roots", visited, roots)
			}
		})
	}
}

func names(insts []*lsv1alpha1.Installation) []string {
	var out []string
	for _, i := range insts {
		out = append(out, i.Name)
	}
	return out
}
