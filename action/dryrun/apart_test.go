package dryrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lscli/lscli/internal/benchland"
	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/internal/linediff"
	"github.com/lscli/lscli/landscape"
)

// inlineRoot is a root installation in namespace bench whose inline
// blueprint has the lines blueprint after its kind, indented by two.
func inlineRoot(name, blueprint string) string {
	return `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: ` + name + `, namespace: bench}
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
` + blueprint
}

// failingRoot's deploy template fails to render: a problem.
const failingRoot = `          deployExecutions:
          - name: main
            type: GoTemplate
            template: |
              deployItems: {{ .imports.missing.value }}
`

// uncheckedRoot's export execution reads an export its mock deploy item
// does not assume: a warning.
const uncheckedRoot = `          exports: [{name: out, schema: {type: string}}]
          deployExecutions:
          - name: main
            type: GoTemplate
            template: |
              deployItems:
              - {name: item, type: landscaper.gardener.cloud/mock, config: {}}
          exportExecutions:
          - name: main
            type: GoTemplate
            template: |
              exports: {out: {{ .deployitems.item.value | required "no value" }}}
`

// writeLandscape writes a benchmark landscape of roots roots with a failing
// and an unchecked root among them, and loads it.
func writeLandscape(t *testing.T, shape benchland.Shape, roots int) *landscape.Landscape {
	t.Helper()
	dir := t.TempDir()
	if err := shape.Write(dir, roots); err != nil {
		t.Fatal(err)
	}
	extra := inlineRoot("inst-00003-fails", failingRoot) + "---\n" + inlineRoot("inst-00007-unchecked", uncheckedRoot)
	if err := os.WriteFile(filepath.Join(dir, "extra.yaml"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	ls, err := (&landscape.Loader{FS: os.DirFS(dir)}).Load(".")
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// dump writes down everything a Result holds, for comparisons.
func dump(t *testing.T, res *Result) string {
	t.Helper()
	var b strings.Builder
	for _, o := range res.Objects {
		line, err := fastjson.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	for _, p := range res.Problems {
		fmt.Fprintf(&b, "problem: %v\n", p)
	}
	for _, p := range res.Warnings {
		fmt.Fprintf(&b, "warning: %v\n", p)
	}
	var walk func(n *Installation)
	walk = func(n *Installation) {
		obj, err := fastjson.Marshal(n.Object)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "node %s %s %s err=%v unchecked=%v skipped=%q imports=%v exports=%v items=%v\n",
			n.Path, n.Blueprint, obj, n.Err, n.Unchecked, n.Skipped, n.Imports != nil, n.Exports != nil, len(n.DeployItems))
		for _, di := range n.DeployItems {
			fmt.Fprintf(&b, "  item %s %v %s\n", di.Name, di.Exports, di.ExportsFrom)
		}
		for _, sub := range n.Subinstallations {
			walk(sub)
		}
	}
	for _, n := range res.Roots {
		walk(n)
	}
	return b.String()
}

func TestRenderApartIsRenderInOrder(t *testing.T) {
	for _, shape := range []benchland.Shape{benchland.Chained, benchland.Flat} {
		t.Run(shape.Name, func(t *testing.T) {
			seq := &Render{Workers: 1}
			want, err := seq.Run(context.Background(), writeLandscape(t, shape, 40))
			if err != nil {
				t.Fatal(err)
			}
			par := &Render{Workers: 3}
			got, err := par.Run(context.Background(), writeLandscape(t, shape, 40))
			if err != nil {
				t.Fatal(err)
			}
			if seq.rendersApart != 0 || par.rendersApart != 1 {
				t.Fatalf("roots rendered apart in %d (Workers 1) and %d (Workers 3) namespaces, want 0 and 1", seq.rendersApart, par.rendersApart)
			}
			if len(want.Problems) == 0 || len(want.Warnings) == 0 {
				t.Fatalf("the landscape should have problems and warnings: %d, %d", len(want.Problems), len(want.Warnings))
			}
			if d := linediff.Describe("in order", dump(t, want), "apart", dump(t, got)); d != "" {
				t.Fatal(d)
			}
		})
	}
}

func TestRenderApartLeavesDependentRootsInOrder(t *testing.T) {
	files := map[string]string{}
	for i := range minApart + 2 {
		imp := ""
		if i > 0 {
			imp = fmt.Sprintf("r%02d-out", i-1)
		}
		files[fmt.Sprintf("r%02d.yaml", i)] = root(fmt.Sprintf("r%02d", i), imp, "v")
	}
	r := &Render{Workers: 2}
	if _, err := r.Run(context.Background(), load(t, files)); err != nil {
		t.Fatal(err)
	}
	if r.rendersApart != 0 {
		t.Error("roots that import each other's exports were rendered apart")
	}
}

func TestApartHold(t *testing.T) {
	a, b := objectKey{kind: "DataObject", namespace: "ns", name: "a"}, objectKey{kind: "DataObject", namespace: "ns", name: "b"}
	for _, tc := range []struct {
		name    string
		renders []apartRender
		want    bool
	}{
		{"disjoint", []apartRender{{order: []objectKey{a}}, {order: []objectKey{b}}}, true},
		{"same object", []apartRender{{order: []objectKey{a}}, {order: []objectKey{b, a}}}, false},
		{"deleted", []apartRender{{order: []objectKey{a}, deleted: true}}, false},
	} {
		if got := apartHold(tc.renders); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRenderWithoutObjectsIsRender: a dry run whose caller does not read
// the objects (validate, render's tree) finds the same roots, problems and
// warnings, in two namespaces rendered apart, of which the first is taken
// over and the last is not.
func TestRenderWithoutObjectsIsRender(t *testing.T) {
	dir := t.TempDir()
	if err := benchland.Chained.Write(dir, 20); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		other := strings.ReplaceAll(string(data), "namespace: bench", "namespace: other")
		if other == string(data) {
			t.Fatalf("%s: no namespace to change", f)
		}
		if err := os.WriteFile(strings.TrimSuffix(f, ".yaml")+"-other.yaml", []byte(other), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	extra := inlineRoot("inst-00003-fails", failingRoot) + "---\n" + inlineRoot("inst-00007-unchecked", uncheckedRoot)
	if err := os.WriteFile(filepath.Join(dir, "extra.yaml"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(r *Render) *Result {
		t.Helper()
		ls, err := (&landscape.Loader{FS: os.DirFS(dir)}).Load(".")
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Run(context.Background(), ls)
		if err != nil {
			t.Fatal(err)
		}
		if r.rendersApart != 2 {
			t.Fatalf("roots rendered apart in %d namespaces, want 2", r.rendersApart)
		}
		return res
	}
	want := run(&Render{Workers: 3})
	got := run(&Render{Workers: 3, WithoutObjects: true})
	if got.Objects != nil {
		t.Fatalf("%d objects without objects", len(got.Objects))
	}
	if len(want.Problems) == 0 || len(want.Warnings) == 0 {
		t.Fatalf("the landscape should have problems and warnings: %d, %d", len(want.Problems), len(want.Warnings))
	}
	want.Objects = nil
	if w, g := dump(t, want), dump(t, got); w != g {
		t.Fatalf("without objects:\n%s\nwith objects:\n%s", g, w)
	}
}

// TestRenderApartWarnsInOrder: the warnings about the files that roots
// rendered apart find are taken over in the order renderInOrder finds them,
// each naming the roots it is about in their order.
func TestRenderApartWarnsInOrder(t *testing.T) {
	files := map[string]string{}
	for i := range minApart + 2 {
		name := fmt.Sprintf("r%02d", i)
		extra := "          ---\n          kind: Blueprint\n"
		if i%2 == 1 {
			extra += extra
		}
		files[name+".yaml"] = inlineRoot(name, extra)
	}
	seq := &Render{Workers: 1}
	want, err := seq.Run(context.Background(), load(t, files))
	if err != nil {
		t.Fatal(err)
	}
	par := &Render{Workers: 3}
	got, err := par.Run(context.Background(), load(t, files))
	if err != nil {
		t.Fatal(err)
	}
	if par.rendersApart != 1 {
		t.Fatalf("roots rendered apart in %d namespaces, want 1", par.rendersApart)
	}
	const text = ": blueprint inline: blueprint.yaml holds %s after the first, which Landscaper ignores: it reads one Blueprint from the file; remove %s"
	inOrder := []string{
		fmt.Sprintf("installations bench/r00, bench/r02, bench/r04 and %d more"+text, (minApart+2+1)/2-3, "1 more YAML document", "it"),
		fmt.Sprintf("installations bench/r01, bench/r03, bench/r05 and %d more"+text, (minApart+2)/2-3, "2 more YAML documents", "them"),
	}
	if !slices.Equal(want.InputWarnings, inOrder) {
		t.Errorf("warnings in order:\n%q\nwant\n%q", want.InputWarnings, inOrder)
	}
	if !slices.Equal(got.InputWarnings, want.InputWarnings) {
		t.Errorf("warnings apart:\n%q\nin order:\n%q", got.InputWarnings, want.InputWarnings)
	}
}
