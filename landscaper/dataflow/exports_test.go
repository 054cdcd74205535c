package dataflow

import (
	"context"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// withDeployItemExports gives inst an Execution whose export DataObject
// holds exports, as the execution controller writes it.
func withDeployItemExports(t *testing.T, c *testCluster, inst *lsv1alpha1.Installation, exports string) {
	t.Helper()
	exec := &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Name: inst.Name, Namespace: ns,
		OwnerReferences: []metav1.OwnerReference{ControllerRef(inst, "Installation")}}}
	create(t, c, exec)
	do := decodeObject(t, "kind: DataObject\nmetadata: {name: exec-exports}\ndata: "+exports)
	create(t, c, do)
	exec.Status.ExportReference = &lsv1alpha1.ObjectReference{Name: "exec-exports", Namespace: ns}
	if err := c.UpdateStatus(context.Background(), exec); err != nil {
		t.Fatal(err)
	}
}

// exportBlueprint declares exports and renders them with one execution.
func exportBlueprint(exports, template string) string {
	return blueprintImports("") + "exports:\n" + exports + "\nexportExecutions:\n- name: main\n  type: GoTemplate\n  template: |\n    " + template + "\n"
}

func TestExportBindings(t *testing.T) {
	c := newCluster(t, sources)
	parent := installation(t, c, "p", "exports: {data: [{name: seen, dataRef: seen}]}",
		exportBlueprint("- {name: seen, schema: {type: object}}",
			`exports: {seen: {di: {{ .deployitems.app.url | quote }}, values: {{ .values.deployitems.app.url | quote }}, do: {{ .dataobjects.fromchild | quote }}, target: {{ .targets.tgt.spec.type | quote }}, state: {{ .state | toJson }}}}`))
	withDeployItemExports(t, c, parent, "{app: {url: u}}")
	child := installation(t, c, "child", "exports: {data: [{name: o, dataRef: fromchild}], targets: [{name: t, target: tgt}]}",
		exportBlueprint("- {name: o, schema: {type: string}}\n- {name: t, type: target, targetType: x/y}", `exports: {o: child-value, t: {type: x/y, config: {a: 1}}}`))
	childOf(t, c, child, parent)
	writeExports(t, c, child)
	exps := writeExports(t, c, parent)
	want := `{"di":"u","do":"child-value","state":{},"target":"x/y","values":"u"}`
	if got := toJSON(exps.Values["seen"]); got != want {
		t.Errorf("export bindings = %s\nwant %s", got, want)
	}
}

// writeExports constructs and writes the exports of inst.
func writeExports(t *testing.T, c *testCluster, inst *lsv1alpha1.Installation) *Exports {
	t.Helper()
	exps, err := ConstructExports(context.Background(), c, inst, blueprintOf(t, inst), resolve(t, c, inst))
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteExports(context.Background(), c, inst, exps); err != nil {
		t.Fatal(err)
	}
	return exps
}

func TestWriteExports(t *testing.T) {
	c := newCluster(t)
	parent := installation(t, c, "p", "{}", blueprintImports(""))
	child := installation(t, c, "c", "exports: {data: [{name: o, dataRef: out}], targets: [{name: t, target: cluster}]}",
		exportBlueprint("- {name: o, schema: {type: string}}\n- {name: t, type: target, targetType: x/y}",
			`exports: {o: hello, t: {type: x/y, labels: {team: a}, config: {k: v}}, undeclared: dropped}`))
	childOf(t, c, child, parent)
	exps := writeExports(t, c, child)
	if _, ok := exps.Values["undeclared"]; ok {
		t.Error("an export the blueprint does not declare was kept")
	}
	labels := map[string]string{lsv1alpha1.DataObjectContextLabel: "Inst.p", lsv1alpha1.DataObjectSourceLabel: "Inst.c",
		lsv1alpha1.DataObjectSourceTypeLabel: "export", lsv1alpha1.DataObjectJobIDLabel: "job-1"}
	do := &lsv1alpha1.DataObject{}
	get(t, c, helper.GenerateDataObjectName("Inst.p", "out"), do)
	labels[lsv1alpha1.DataObjectKeyLabel] = "out"
	checkLabels(t, do.Labels, labels)
	if toJSON(do.Data) != `"hello"` || len(do.OwnerReferences) != 1 || do.OwnerReferences[0].Name != "c" {
		t.Errorf("DataObject = %s owned by %+v", toJSON(do.Data), do.OwnerReferences)
	}
	tgt := &lsv1alpha1.Target{}
	get(t, c, helper.GenerateDataObjectName("Inst.p", "cluster"), tgt)
	labels[lsv1alpha1.DataObjectKeyLabel] = "cluster"
	labels["team"] = "a"
	checkLabels(t, tgt.Labels, labels)

	other := installation(t, c, "other", "exports: {data: [{name: o, dataRef: out}]}",
		exportBlueprint("- {name: o, schema: {type: string}}", `exports: {o: again}`))
	childOf(t, c, other, parent)
	exps, err := ConstructExports(context.Background(), c, other, blueprintOf(t, other), resolve(t, c, other))
	if err != nil {
		t.Fatal(err)
	}
	checkErr(t, WriteExports(context.Background(), c, other, exps), "is already written by installation c", false)

	if err := CleanupExports(context.Background(), c, child); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(context.Background(), key(helper.GenerateDataObjectName("Inst.p", "out")), do); !isNotFound(err) {
		t.Errorf("CleanupExports left the export: %v", err)
	}
}

func TestRootExportsKeepTheirNames(t *testing.T) {
	c := newCluster(t)
	root := installation(t, c, "r", "exports: {data: [{name: o, dataRef: my-output}]}",
		exportBlueprint("- {name: o, schema: {type: string}}", `exports: {o: x}`))
	writeExports(t, c, root)
	do := &lsv1alpha1.DataObject{}
	get(t, c, "my-output", do)
	if _, ok := do.Labels[lsv1alpha1.DataObjectContextLabel]; ok {
		t.Errorf("a root export has a context label: %v", do.Labels)
	}
}

func TestConstructExportsErrors(t *testing.T) {
	tests := []struct {
		name, spec, exports, template, want string
	}{
		{name: "schema", spec: "exports: {data: [{name: o, dataRef: o}]}", exports: "- {name: o, schema: {type: integer}}",
			template: "exports: {o: text}", want: `export "o": does not match the blueprint's schema: (root): Invalid type. Expected: integer, given: string`},
		{name: "target type", spec: "exports: {targets: [{name: t, target: t}]}", exports: "- {name: t, type: target, targetType: a/b}",
			template: "exports: {t: {type: c/d}}", want: `export "t": target type is "c/d", the blueprint wants "a/b"`},
		{name: "no value", spec: "exports: {data: [{name: o, dataRef: o}]}", exports: "- {name: o, schema: {}}", template: "exports: {}",
			want: `data export "o" has no value: neither the blueprint's exportExecutions nor exportDataMappings produce "o"`},
		{name: "no target value", spec: "exports: {targets: [{name: t, target: t}]}", exports: "- {name: t, type: target, targetType: a/b}",
			template: "exports: {}", want: `target export "t" has no value`},
		// gardener's controlplane blueprint: the export execution renders
		// the value, the blueprint declares no export of that name, and
		// Landscaper drops it (exports/constructor.go).
		{name: "undeclared", spec: "exports: {data: [{name: o, dataRef: o}]}", exports: "", template: "exports: {o: x}",
			want: `data export "o" has no value: the blueprint's exportExecutions produce "o", but the blueprint declares no export "o", and Landscaper drops the exports a blueprint does not declare (add "o" to the blueprint's exports)`},
		{name: "undeclared target", spec: "exports: {targets: [{name: t, target: t}]}", exports: "", template: "exports: {t: {type: a/b}}",
			want: `target export "t" has no value: the blueprint's exportExecutions produce "t", but the blueprint declares no export "t", and Landscaper drops the exports a blueprint does not declare (add "t" to the blueprint's exports)`},
		{name: "mapping", spec: "exports: {data: [{name: m, dataRef: m}]}\nexportDataMappings: {m: '(( nope ))'}", exports: "",
			template: "exports: {}", want: `spec.exportDataMappings["m"]: unresolved nodes`},
		{name: "template", spec: "{}", exports: "", template: "exports: {{ .deployitems.x.y }}",
			want: `exportExecution "main": line 1, column 24: at <.deployitems.x.y>: nil pointer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCluster(t)
			inst := installation(t, c, "i", tt.spec, exportBlueprint(tt.exports, tt.template))
			_, err := ConstructExports(context.Background(), c, inst, blueprintOf(t, inst), resolve(t, c, inst))
			checkErr(t, err, tt.want, true)
		})
	}
}

func TestExportDataMappingsAndState(t *testing.T) {
	c := newCluster(t)
	inst := installation(t, c, "i", "exports: {data: [{name: url, dataRef: u}, {name: summary, dataRef: s}]}\n"+
		"exportDataMappings: {summary: '(( \"at \" exports.url ))', url: '(( url \"/v2\" ))'}",
		exportBlueprint("- {name: url, schema: {type: string}}", `exports: {url: "http://x"}`+"\n    state: {runs: {{ add (default 0 .state.runs) 1 }}}"))
	exps := writeExports(t, c, inst)
	if toJSON(exps.Values) != `{"summary":"at http://x","url":"http://x/v2"}` {
		t.Errorf("exports = %s", toJSON(exps.Values))
	}
	writeExports(t, c, inst)
	if st, _ := loadState(context.Background(), c, inst, "export", "main"); string(st) != `{"runs":2}` {
		t.Errorf("export state = %s, want runs 2 after two jobs", st)
	}
}

func TestCleanupContext(t *testing.T) {
	c := newCluster(t, sources)
	inst := installation(t, c, "i", "imports: {data: [{name: cfg, dataRef: config}]}", blueprintImports("- {name: cfg, schema: {}}"))
	if err := WriteImports(context.Background(), c, inst, resolve(t, c, inst)); err != nil {
		t.Fatal(err)
	}
	name := helper.GenerateDataObjectName("Inst.i", "cfg")
	if err := CleanupContext(context.Background(), c, inst); err != nil {
		t.Fatal(err)
	}
	get(t, c, name, &lsv1alpha1.DataObject{})
	inst.Status.JobID = "job-2"
	if err := CleanupContext(context.Background(), c, inst); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(context.Background(), key(name), &lsv1alpha1.DataObject{}); !isNotFound(err) {
		t.Errorf("CleanupContext kept an object of an old job: %v", err)
	}
}
