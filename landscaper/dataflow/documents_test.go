package dataflow

import (
	"context"
	"slices"
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/reconcile"
)

// TestIgnoredDocumentsWarned: the further documents of blueprint.yaml and of
// a subinstallation's file are warned of, naming the installation, the
// blueprint and the file; the first document is what is used, as in
// Landscaper's GetSubinstallations. A file whose further documents hold
// nothing, an entry whose inline template wins, and a missing file (an
// error of its own) are not warned of.
func TestIgnoredDocumentsWarned(t *testing.T) {
	fsys := fstest.MapFS{
		"blueprint.yaml": {Data: []byte(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
subinstallations:
- file: /two.yaml
- file: empty-extra.yaml
- file: /inline-wins.yaml
  name: inline
  blueprint: {ref: x}
- file: /missing.yaml
---
# a comment alone
---
kind: Blueprint
`)},
		"two.yaml":         {Data: []byte("name: first\nblueprint: {ref: x}\n---\nname: second\nblueprint: {ref: x}\n")},
		"empty-extra.yaml": {Data: []byte("name: only\nblueprint: {ref: x}\n---\n# nothing\n---\n")},
		"inline-wins.yaml": {Data: []byte("name: a\n---\nname: b\n")},
	}
	bp, err := blueprint.FromFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	bp.Source = "blueprints/app"
	inst := &lsv1alpha1.Installation{}
	inst.Namespace, inst.Name = "ns", "app"

	var w reconcile.Warnings
	warnIgnoredDocuments(reconcile.WithWarnings(context.Background(), &w), inst, bp)
	want := []string{
		"installation ns/app: blueprint blueprints/app: blueprint.yaml holds 1 more YAML document after the first, which Landscaper ignores: it reads one Blueprint from the file; remove it",
		"installation ns/app: blueprint blueprints/app: subinstallations[0]: file /two.yaml holds 1 more YAML document after the first, which Landscaper ignores: " +
			"it reads one InstallationTemplate per file; put one subinstallation in each file and list each in the blueprint's subinstallations",
	}
	if got := w.All(); !slices.Equal(got, want) {
		t.Errorf("warnings:\n%q\nwant\n%q", got, want)
	}

	// The first document is the template, as Landscaper decodes it.
	tmpls, err := blueprintSubinstallations(inst, &blueprint.Blueprint{Info: &lsv1alpha1.Blueprint{Subinstallations: bp.Info.Subinstallations[:2]}, FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, t := range tmpls {
		names = append(names, t.Name)
	}
	if !slices.Equal(names, []string{"first", "only"}) {
		t.Errorf("templates = %q, want the first document of each file", names)
	}
}
