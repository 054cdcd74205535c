package dryrun

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/internal/benchland"
	"github.com/lscli/lscli/landscape"
)

// load reads a landscape from files.
func load(t *testing.T, files map[string]string) *landscape.Landscape {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(content)}
	}
	ls, err := (&landscape.Loader{FS: fsys}).Load(".")
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// root is a root installation whose blueprint exports "out" from a mock
// deploy item, importing "in" when imp is set.
func root(name, imp, export string) string {
	spec := ""
	bpImports := ""
	if imp != "" {
		spec += "  imports: {data: [{name: in, dataRef: " + imp + "}]}\n"
		bpImports = "          imports: [{name: in, schema: {}}]\n"
	}
	return `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: ` + name + `}
spec:
` + spec + `  exports: {data: [{name: out, dataRef: ` + name + `-out}]}
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
` + bpImports + `          exports: [{name: out, schema: {type: string}}]
          deployExecutions:
          - name: main
            type: GoTemplate
            template: |
              deployItems:
              - {name: item, type: landscaper.gardener.cloud/mock, config: {export: {value: ` + export + `}}}
          exportExecutions:
          - name: main
            type: GoTemplate
            template: |
              exports: {out: {{ .deployitems.item.value }}}
`
}

func TestRunOrdersRootsByTheirImports(t *testing.T) {
	ls := load(t, map[string]string{
		"a.yaml": root("a-consumer", "b-producer-out", "x"),
		"b.yaml": root("b-producer", "", "made-by-b"),
	})
	res, err := (&Render{}).Run(context.Background(), ls)
	if err != nil || len(res.Problems) > 0 {
		t.Fatalf("Run: %v %v", err, res.Problems)
	}
	if res.Roots[0].Path != "b-producer" || res.Roots[1].Path != "a-consumer" {
		t.Errorf("roots rendered as %s, %s; want the producer first", res.Roots[0].Path, res.Roots[1].Path)
	}
	if got := res.Roots[1].Imports.Values["in"]; got != "made-by-b" {
		t.Errorf("consumer imports %v", got)
	}
	if di := res.Roots[0].DeployItems[0]; di.ExportsFrom != "mock config" {
		t.Errorf("deploy item exports from %q", di.ExportsFrom)
	}
}

func TestRunSkipsSuccessorsOfFailures(t *testing.T) {
	broken := strings.Replace(root("b-producer", "", "x"), "{{ .deployitems.item.value }}", "{{ .deployitems.nope.value }}", 1)
	ls := load(t, map[string]string{
		"a.yaml": root("a-consumer", "b-producer-out", "x"),
		"b.yaml": broken,
		"c.yaml": root("c-alone", "", "why"),
	})
	res, err := (&Render{}).Run(context.Background(), ls)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Error(), "installation default/b-producer: exportExecution") {
		t.Fatalf("problems = %v, want only the producer's", res.Problems)
	}
	byPath := map[string]*Installation{}
	for _, n := range res.Roots {
		byPath[n.Path] = n
	}
	if s := byPath["a-consumer"].Skipped; s != "it imports exports of b-producer, which did not render" {
		t.Errorf("consumer: skipped %q", s)
	}
	if byPath["c-alone"].Exports == nil {
		t.Error("an independent root did not render")
	}
}

func TestExportRules(t *testing.T) {
	rules := []ExportRule{{Pattern: "app/*"}, {Pattern: "app/db/schema"}, {Pattern: "*/*/*"}, {Pattern: "app/db/*"}}
	SortRules(rules)
	var order []string
	for _, r := range rules {
		order = append(order, r.Pattern)
	}
	if got := strings.Join(order, " "); got != "app/db/schema app/db/* */*/* app/*" {
		t.Errorf("order = %s", got)
	}
	r := &Render{Exports: []ExportRule{{Pattern: "app/db/*", Exports: "db"}, {Pattern: "app/*", Exports: "app"}}}
	tests := []struct {
		path, item string
		typ        lsv1alpha1.DeployItemType
		config     string
		want       any
		from       string
	}{
		{path: "app/db", item: "schema", typ: "helm", want: "db", from: "rule app/db/*"},
		{path: "app", item: "web", typ: "helm", want: "app", from: "rule app/*"},
		{path: "other", item: "m", typ: MockType, config: `{"export": {"k": "v"}}`, want: map[string]any{"k": "v"}, from: "mock config"},
		{path: "other", item: "h", typ: "helm"},
	}
	for _, tt := range tests {
		di := lsv1alpha1.DeployItemTemplate{Name: tt.item, Type: tt.typ}
		if tt.config != "" {
			di.Configuration = &runtimeRaw{Raw: []byte(tt.config)}
		}
		got, from, err := r.itemExports("default", tt.path, di)
		if err != nil || from != tt.from || toString(got) != toString(tt.want) {
			t.Errorf("%s/%s: exports %v from %q (%v), want %v from %q", tt.path, tt.item, got, from, err, tt.want, tt.from)
		}
	}
	if err := CheckRules([]ExportRule{{Pattern: "a/["}}); err == nil {
		t.Error("CheckRules accepted a bad pattern")
	}
}

// TestProblemsNameTheirRoot: every problem and warning says which root
// installation it was found under, also for a subinstallation's problem and
// when the roots render apart, so that the caller can name the root's file.
func TestProblemsNameTheirRoot(t *testing.T) {
	// The child's folder follows blueprint.yaml in the parent's file system.
	withFailingChild := inlineRoot("parent", `          subinstallations:
          - {name: child, blueprint: {ref: child}}
        child:
          blueprint.yaml: |
            apiVersion: landscaper.gardener.cloud/v1alpha1
            kind: Blueprint
            deployExecutions:
            - {name: main, type: GoTemplate, template: "deployItems: {{ .imports.missing.value }}"}
`)
	for _, workers := range []int{1, 3} {
		ls := writeLandscape(t, benchland.Flat, 40)
		more := load(t, map[string]string{"parent.yaml": withFailingChild})
		ls.Objects = append(ls.Objects, more.Objects...)
		res, err := (&Render{Workers: workers}).Run(context.Background(), ls)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"problem": "bench/inst-00003-fails", "warning": "bench/inst-00007-unchecked", "child": "bench/parent"}
		got := map[string]string{}
		for _, p := range res.Problems {
			var re *RootError
			if !errors.As(p, &re) {
				t.Errorf("workers %d: problem without its root: %v", workers, p)
				continue
			}
			if strings.Contains(p.Error(), "installation bench/child-") {
				got["child"] = re.Root.String()
			} else {
				got["problem"] = re.Root.String()
			}
		}
		for _, w := range res.Warnings {
			var re *RootError
			if errors.As(w, &re) {
				got["warning"] = re.Root.String()
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("workers %d: roots = %v, want %v (problems %v, warnings %v)", workers, got, want, res.Problems, res.Warnings)
		}
	}
}
