package dataflow

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/components/source"
)

func TestRenderSubinstallationsSources(t *testing.T) {
	c := newCluster(t, sources)
	bp := blueprintImports("- {name: cfg, schema: {}}\n- {name: opt, required: false, schema: {}}") + `subinstallations:
- file: /sub/file.yaml
- {name: inline, imports: {data: [{name: in1, dataRef: cfg}, {name: in2, dataRef: opt}]}, blueprint: {ref: sub}}
subinstallationExecutions:
- name: gen
  type: GoTemplate
  template: |
    state: {seen: true}
    subinstallations:
    - {name: generated-{{ .imports.cfg.name }}, blueprint: {ref: sub}}
`
	inst := installation(t, c, "i", "imports: {data: [{name: cfg, dataRef: config}]}", bp,
		"sub", map[string]any{"file.yaml": "name: from-file\nblueprint: {ref: sub}\n", "blueprint.yaml": "kind: Blueprint\n"})
	tmpls, err := RenderSubinstallations(context.Background(), c, inst, blueprintOf(t, inst), resolve(t, c, inst))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tm := range tmpls {
		names = append(names, tm.Name)
	}
	if got := strings.Join(names, ","); got != "generated-app,from-file,inline" {
		t.Errorf("templates = %s, want executions first, then the blueprint's", got)
	}
	if imps := tmpls[2].Imports.Data; len(imps) != 1 || imps[0].DataRef != "cfg" {
		t.Errorf("inline imports = %+v, want the unset optional import dropped", imps)
	}
	if st, _ := loadState(context.Background(), c, inst, "deploy", "gen"); string(st) != `{"seen":true}` {
		t.Errorf("state of the subinstallation execution = %s", st)
	}
}

func TestRenderSubinstallationsErrors(t *testing.T) {
	tests := []struct {
		name, subs, want string
	}{
		{name: "duplicate name", subs: "- {name: a, blueprint: {ref: x}}\n- {name: a, blueprint: {ref: x}}", want: `subinstallations.a: Duplicate value: "duplicated subinstallation" (subinstallation names are unique)`},
		{name: "invalid name", subs: "- {name: A_B, blueprint: {ref: x}}", want: `subinstallations.A_B.name: Invalid value: "A_B"`},
		{name: "no blueprint", subs: "- {name: a}", want: `subinstallations.a.blueprint: Required value: a blueprint must be defined`},
		{name: "duplicate data export", subs: "- {name: a, blueprint: {ref: x}, exports: {data: [{name: o, dataRef: d}]}}\n" +
			"- {name: b, blueprint: {ref: x}, exports: {data: [{name: o, dataRef: d}]}}", want: "subinstallations.b.exports.data[0][o/d]: Forbidden: data export 'd' is already exported by " +
			"subinstallations.a.exports.data[0][o/d] (only one subinstallation may export a dataRef or target)"},
		{name: "duplicate target export", subs: "- {name: a, blueprint: {ref: x}, exports: {targets: [{name: o, target: t}]}}\n" +
			"- {name: b, blueprint: {ref: x}, exports: {targets: [{name: o, target: t}]}}", want: "subinstallations.b.exports.targets[0][o/t]: Forbidden: target export 't' is already exported by " +
			"subinstallations.a.exports.targets[0][o/t]"},
		{name: "exports a parent import", subs: "- {name: a, blueprint: {ref: x}, exports: {data: [{name: o, dataRef: cfg}]}}",
			want: `subinstallations.a.exports.data[0][o/cfg]: Forbidden: export is imported by its parent ` +
				`(the parent imports "cfg": export it under another name)`},
		{name: "unsatisfied data", subs: "- {name: a, blueprint: {ref: x}, imports: {data: [{name: i, dataRef: nope}]}}",
			want: `subinstallations.a.imports.data[0][i]: Not found: "import not satisfied" ` +
				`(data "nope" is neither an import of the parent nor an export of a sibling)`},
		{name: "unsatisfied target", subs: "- {name: a, blueprint: {ref: x}, imports: {targets: [{name: i, targets: [nope]}]}}",
			want: `subinstallations.a.imports.targets[0][i].targets[0]: Not found: "import not satisfied" (target "nope"`},
		{name: "list ref to a single target", subs: "- {name: a, blueprint: {ref: x}, imports: {targets: [{name: i, targetListRef: cluster}]}}",
			want: `subinstallations.a.imports.targets[0][i]: Not found: "import not satisfied" ` +
				`(target list "cluster" is no targetList import of the parent)`},
		{name: "cycle", subs: "- {name: a, blueprint: {ref: x}, imports: {data: [{name: i, dataRef: db}]}, exports: {data: [{name: o, dataRef: da}]}}\n" +
			"- {name: b, blueprint: {ref: x}, imports: {data: [{name: i, dataRef: da}]}, exports: {data: [{name: o, dataRef: db}]}}",
			want: `they import each other's exports in a cycle: "a" imports from "b", "b" from "a"`},
		{name: "missing file", subs: "- file: nope.yaml", want: "blueprint subinstallations[0]: file nope.yaml: no such file in the blueprint"},
		{name: "not a template", subs: "- file: blueprint.yaml", want: "blueprint subinstallations[0]: file blueprint.yaml: not an InstallationTemplate"},
		{name: "neither", subs: "- {}", want: "blueprint subinstallations[0] is neither a file nor an inline template"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCluster(t, sources)
			bp := blueprintImports("- {name: cfg, schema: {}}\n- {name: cluster, type: target, targetType: kubernetes-cluster}") + "subinstallations:\n" + tt.subs + "\n"
			inst := installation(t, c, "i", "imports: {data: [{name: cfg, dataRef: config}], targets: [{name: cluster, target: blue}]}", bp)
			tmpls, err := RenderSubinstallations(context.Background(), c, inst, blueprintOf(t, inst), resolve(t, c, inst))
			checkErr(t, err, tt.want, true)
			// Only a cycle is a *CycleError, and comes with the templates.
			var cycle *CycleError
			if isCycle := errors.As(err, &cycle); isCycle != (tt.name == "cycle") || isCycle != (len(tmpls) == 2) {
				t.Errorf("CycleError: %v, %d templates; want both only for the cycle", isCycle, len(tmpls))
			}
		})
	}
}

// parentCD references a component that is not inline but in dbCD, a
// component descriptor in the landscape.
const parentCD = `componentDescriptor:
  inline:
    meta: {schemaVersion: v2}
    component:
      name: example.com/root
      version: 1.0.0
      provider: internal
      repositoryContexts: [{type: ociRegistry, baseUrl: r.example.com}]
      sources: []
      resources:
      - {name: bp, type: blueprint, relation: local, access: {type: localFilesystemBlob, filename: bp}}
      componentReferences:
      - {name: db, componentName: example.com/db, version: 2.0.0}`

const dbCD = `meta: {schemaVersion: v2}
component:
  name: example.com/db
  version: 2.0.0
  provider: internal
  repositoryContexts: [{type: ociRegistry, baseUrl: r.example.com}]
  resources:
  - {name: bp, type: blueprint, relation: local, access: {type: localFilesystemBlob, filename: bp}}
`

func TestSubinstallationBlueprint(t *testing.T) {
	c := newCluster(t)
	parent := installation(t, c, "parent", parentCD, blueprintImports(""), "blueprints", map[string]any{
		"db": map[string]any{"blueprint.yaml": "kind: Blueprint\n", "deploy.tpl": "x"}})
	root := source.Root{FS: fstest.MapFS{"db.yaml": {Data: []byte(dbCD)}}, Display: "."}
	reg := components.NewFromRoots(components.Config{}, []source.Root{root}, root)
	bp, tree, err := InstallationBlueprint(context.Background(), c, parent, Sources{Components: reg})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tmpl, blueprint, component, err string
	}{
		{name: "filesystem", tmpl: `{name: a, blueprint: {filesystem: {blueprint.yaml: "kind: Blueprint"}}}`,
			blueprint: `{"inline":{"filesystem":{"blueprint.yaml":"kind: Blueprint"}}}`, component: "example.com/root"},
		{name: "own resource", tmpl: `{name: a, blueprint: {ref: "cd://resources/bp"}}`,
			blueprint: `{"ref":{"resourceName":"bp"}}`, component: `{"ref":{"componentName":"example.com/root","repositoryContext":{"baseUrl":"r.example.com","type":"ociRegistry"},"version":"1.0.0"}}`},
		{name: "referenced component", tmpl: `{name: a, blueprint: {ref: "cd://componentReferences/db/resources/bp"}}`,
			blueprint: `{"ref":{"resourceName":"bp"}}`, component: `{"ref":{"componentName":"example.com/db","repositoryContext":{"baseUrl":"r.example.com","type":"ociRegistry"},"version":"2.0.0"}}`},
		{name: "folder of the blueprint", tmpl: `{name: a, blueprint: {ref: blueprints/db}}`,
			blueprint: `{"inline":{"filesystem":{"blueprint.yaml":"kind: Blueprint\n","deploy.tpl":"x"}}}`, component: "example.com/root"},
		{name: "unknown reference", tmpl: `{name: a, blueprint: {ref: "cd://componentReferences/nope/resources/bp"}}`,
			err: `subinstallation "a": blueprint.ref "cd://componentReferences/nope/resources/bp": unable to resolve blueprint ref in component descriptor example.com/root: component reference nope cannot be found`},
		{name: "unknown resource", tmpl: `{name: a, blueprint: {ref: "cd://componentReferences/db/resources/nope"}}`,
			err: `unable to resolve blueprint ref in component descriptor example.com/root: local resource nope cannot be found`},
		{name: "bad cd uri", tmpl: `{name: a, blueprint: {ref: "cd://sources/x"}}`, err: "unknown keyword sources"},
		{name: "odd cd uri", tmpl: `{name: a, blueprint: {ref: "cd://resources"}}`, err: "even number of path arguments expected"},
		{name: "unknown folder", tmpl: `{name: a, blueprint: {ref: blueprints/nope}}`,
			err: "is neither a cd:// reference, nor a folder of the blueprint with a blueprint.yaml"},
		{name: "none", tmpl: `{name: a}`, err: `subinstallation "a" has neither blueprint.ref nor blueprint.filesystem`},
	}
	noCD := installation(t, c, "no-cd", "{}", blueprintImports(""))
	tmpl := &lsv1alpha1.InstallationTemplate{Name: "a", Blueprint: lsv1alpha1.InstallationTemplateBlueprintDefinition{Ref: "cd://componentReferences/db/resources/bp"}}
	_, _, err = SubinstallationBlueprint(noCD, blueprintOf(t, noCD), nil, tmpl, nil)
	checkErr(t, err, "no component descriptor defined to resolve the blueprint ref", true)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl := &lsv1alpha1.InstallationTemplate{}
			if err := yaml.Unmarshal([]byte(tt.tmpl), tmpl); err != nil {
				t.Fatal(err)
			}
			bpDef, cdDef, err := SubinstallationBlueprint(parent, bp, tree, tmpl, nil)
			if tt.err != "" {
				checkErr(t, err, tt.err, true)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := toJSON(bpDef); got != tt.blueprint {
				t.Errorf("blueprint = %s\nwant        %s", got, tt.blueprint)
			}
			if got := toJSON(cdDef); !strings.Contains(got, tt.component) {
				t.Errorf("component descriptor = %s, want %s", got, tt.component)
			}
		})
	}
}

// hintless matches lscli's advice in a message of validateTemplates.
var hintless = regexp.MustCompile(` \([^()]*\)`)

func TestValidateTemplatesMapOrder(t *testing.T) {
	tmpl := &lsv1alpha1.InstallationTemplate{Name: "a", Blueprint: lsv1alpha1.InstallationTemplateBlueprintDefinition{Ref: "x"}}
	tmpl.Imports.Targets = []lsv1alpha1.TargetImport{{Name: "m", TargetMap: map[string]string{"b": "t2", "a": "t1", "c": "t3"}}}
	want := `[subinstallations.a.imports.targets[0][m].targets[a]: Not found: "import not satisfied" ` +
		`(target "t1" is neither an import of the parent nor an export of a sibling), ` +
		`subinstallations.a.imports.targets[0][m].targets[b]: Not found: "import not satisfied" ` +
		`(target "t2" is neither an import of the parent nor an export of a sibling), ` +
		`subinstallations.a.imports.targets[0][m].targets[c]: Not found: "import not satisfied" ` +
		`(target "t3" is neither an import of the parent nor an export of a sibling)]`
	for range 20 { // Landscaper finds them in map order
		got, landscaper := validateTemplates([]*lsv1alpha1.InstallationTemplate{tmpl}, nil)
		if got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
		if want := hintless.ReplaceAllString(want, ""); landscaper != want {
			t.Fatalf("Landscaper's message: got\n%s\nwant\n%s", landscaper, want)
		}
	}
	if got, landscaper := validateTemplates([]*lsv1alpha1.InstallationTemplate{{Name: "b", Blueprint: tmpl.Blueprint}}, nil); got != "" || landscaper != "" {
		t.Errorf("valid template: %q, %q", got, landscaper)
	}
}
