package benchland_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/internal/benchland"
)

// TestShapesReconcile: every generated shape reconciles to Succeeded with
// the installations and deploy items it promises.
func TestShapesReconcile(t *testing.T) {
	for _, shape := range []benchland.Shape{benchland.Flat, benchland.Chained} {
		t.Run(shape.Name, func(t *testing.T) {
			dir := t.TempDir()
			if err := shape.Write(dir, 3); err != nil {
				t.Fatal(err)
			}
			a := action.NewReconcile(&action.Configuration{StatePath: filepath.Join(t.TempDir(), "state"), Seed: 1})
			a.Paths = []string{dir}
			res, err := a.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode() != action.ExitOK {
				t.Fatalf("exit %d: %+v %+v", res.ExitCode(), res.Assessment.Roots, res.Assessment.Unfinished)
			}
			counts := map[string]int{}
			for _, o := range res.Objects {
				counts[o.GetObjectKind().GroupVersionKind().Kind]++
			}
			if counts["Installation"] != 3*shape.InstallationsPerRoot || counts["DeployItem"] != 3*shape.DeployItemsPerRoot {
				t.Errorf("%d installations, %d deploy items; want %d, %d", counts["Installation"], counts["DeployItem"],
					3*shape.InstallationsPerRoot, 3*shape.DeployItemsPerRoot)
			}
		})
	}
}
