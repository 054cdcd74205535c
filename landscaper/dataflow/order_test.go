package dataflow

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"
)

// templates decodes a YAML list of installation templates.
func templates(t *testing.T, list string) []*lsv1alpha1.InstallationTemplate {
	t.Helper()
	var out []*lsv1alpha1.InstallationTemplate
	if err := yaml.Unmarshal([]byte(list), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestOrderTemplates(t *testing.T) {
	tests := []struct {
		name, list, want, err string
	}{
		{name: "independent keep their order", list: "[{name: b}, {name: a}]", want: "b,a"},
		{name: "chain", list: `- {name: c, imports: {data: [{name: i, dataRef: two}]}}
- {name: b, imports: {data: [{name: i, dataRef: one}]}, exports: {data: [{name: o, dataRef: two}]}}
- {name: a, exports: {data: [{name: o, dataRef: one}]}}`, want: "a,b,c"},
		{name: "targets", list: `- {name: user, imports: {targets: [{name: t, targetMap: {k: made}}]}}
- {name: maker, exports: {targets: [{name: t, target: made}]}}`, want: "maker,user"},
		{name: "list refs refer to the parent", list: `- {name: user, imports: {targets: [{name: t, targetListRef: made}]}}
- {name: maker, exports: {targets: [{name: t, target: made}]}}`, want: "user,maker"},
		{name: "self import", list: `- {name: a, imports: {data: [{name: i, dataRef: x}]}, exports: {data: [{name: o, dataRef: x}]}}`, want: "a"},
		{name: "cycle", list: `- {name: a, imports: {data: [{name: i, dataRef: y}]}, exports: {data: [{name: o, dataRef: x}]}}
- {name: b, imports: {data: [{name: i, dataRef: x}]}, exports: {data: [{name: o, dataRef: y}]}}`,
			err: `they import each other's exports in a cycle: "a" imports from "b", "b" from "a"`},
		{name: "duplicate", list: `[{name: a, exports: {data: [{name: o, dataRef: x}]}}, {name: b, exports: {data: [{name: o, dataRef: x}]}}]`,
			err: `data export "x" is exported by "a" and "b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := OrderTemplates(templates(t, tt.list))
			if tt.err != "" {
				checkErr(t, err, tt.err, false)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tm := range got {
				names = append(names, tm.Name)
			}
			if strings.Join(names, ",") != tt.want {
				t.Errorf("order = %v, want %s", names, tt.want)
			}
		})
	}
}

func TestOrderInstallations(t *testing.T) {
	mk := func(name, imp, exp string) *lsv1alpha1.Installation {
		inst := &lsv1alpha1.Installation{}
		inst.Name = name
		if imp != "" {
			inst.Spec.Imports.Data = []lsv1alpha1.DataImport{{Name: "i", DataRef: imp}}
		}
		if exp != "" {
			inst.Spec.Exports.Data = []lsv1alpha1.DataExport{{Name: "o", DataRef: exp}}
		}
		return inst
	}
	insts := []*lsv1alpha1.Installation{mk("consumer", "x", ""), mk("producer", "", "x")}
	got, err := Order(insts)
	if err != nil || got[0].Name != "producer" || got[1].Name != "consumer" {
		t.Fatalf("Order = %v, %v", got, err)
	}
	if preds := Predecessors(insts); len(preds["consumer"]) != 1 || preds["consumer"][0] != "producer" || len(preds["producer"]) != 0 {
		t.Errorf("Predecessors = %v", preds)
	}
}
