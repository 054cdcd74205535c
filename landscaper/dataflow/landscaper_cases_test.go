package dataflow

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
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

// Landscaper's CleanupContext deletes the objects of an old job only when
// at least one object of the context carries a job ID label
// (utils.CheckIfNewContextDeletion): objects without one are kept then.
func TestCleanupContextNeedsAJobIDLabel(t *testing.T) {
	c := newCluster(t, `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: manual, labels: {data.landscaper.gardener.cloud/context: Inst.i, data.landscaper.gardener.cloud/key: k}}
data: 1
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: manual-target, labels: {data.landscaper.gardener.cloud/context: Inst.i, data.landscaper.gardener.cloud/key: t}}
spec: {type: x/y, config: {}}`)
	inst := installation(t, c, "i", "{}", blueprintImports(""))
	if err := CleanupContext(context.Background(), c, inst); err != nil {
		t.Fatal(err)
	}
	get(t, c, "manual", &lsv1alpha1.DataObject{})
	get(t, c, "manual-target", &lsv1alpha1.Target{})

	// One object with a job ID label: all of an old job go, also those
	// without the label.
	do := decodeObject(t, "kind: DataObject\nmetadata: {name: labelled, labels: {data.landscaper.gardener.cloud/context: Inst.i, data.landscaper.gardener.cloud/jobid: job-0}}\ndata: 2")
	create(t, c, do)
	if err := CleanupContext(context.Background(), c, inst); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"manual", "labelled"} {
		if err := c.Get(context.Background(), key(name), &lsv1alpha1.DataObject{}); !isNotFound(err) {
			t.Errorf("DataObject %s was kept: %v", name, err)
		}
	}
	if err := c.Get(context.Background(), key("manual-target"), &lsv1alpha1.Target{}); !isNotFound(err) {
		t.Errorf("Target manual-target was kept: %v", err)
	}
}

// A root's targetListRef and targetMapRef select Targets without a context
// label (GetTargetListImportBySelector: the label must not exist, so an
// empty value does not do).
func TestRootTargetListRefNeedsNoContextLabel(t *testing.T) {
	c := newCluster(t, `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: a, labels: {data.landscaper.gardener.cloud/key: clusters, data.landscaper.gardener.cloud/sourceType: import}}
spec: {type: x/y, config: a}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: b, labels: {data.landscaper.gardener.cloud/key: clusters, data.landscaper.gardener.cloud/sourceType: import, data.landscaper.gardener.cloud/context: ""}}
spec: {type: x/y, config: b}`)
	inst := installation(t, c, "i", "imports: {targets: [{name: l, targetListRef: clusters}]}",
		blueprintImports("- {name: l, type: targetList, targetType: x/y}"))
	list := resolve(t, c, inst).Values["l"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["metadata"].(map[string]any)["name"] != "a" {
		t.Errorf("targetListRef = %s, want Target a only", toJSON(list))
	}
}

// imports/importexec_test.go with blueprints g, h and i of
// installations/testdata/registry: Spiff import executions bind
// incrementally and report errors, a deleted list element (~~) is none.
func TestLandscaperImportExecutionCases(t *testing.T) {
	const imp = "- {name: mine, type: data, schema: {type: string}}"
	multi := blueprintImports(imp) + `importExecutions:
- name: i.a
  type: Spiff
  template:
    bindings:
      processed: (( imports.mine "(extended)" ))
- name: i.b
  type: Spiff
  template:
    bindings:
      further: (( imports.processed "(further)" ))
`
	check := blueprintImports(imp) + `importExecutions:
- name: g.a
  type: Spiff
  template:
    errors:
    - (( imports.mine != "mytestvalue" ? "invalid test data:"  imports.mine :~~ ))
`
	c := newCluster(t)
	got := resolve(t, c, installation(t, c, "multi", "importDataMappings: {mine: mytestvalue}", multi)).Values
	if got["processed"] != "mytestvalue(extended)" || got["further"] != "mytestvalue(extended)(further)" {
		t.Errorf("imports = %s", toJSON(got))
	}
	resolve(t, c, installation(t, c, "ok", "importDataMappings: {mine: mytestvalue}", check))
	_, err := resolveImports(c, installation(t, c, "error", "importDataMappings: {mine: other}", check))
	checkErr(t, err, "import validation failed: invalid test data:other", true)
}

// imports/conditional_imports_test.go with blueprint root-cond: the
// subinstallation's imports of unset optional or conditional parent
// imports are dropped; a set condition with its conditional import unset
// is an ImportNotFound error naming it.
func TestLandscaperConditionalImportCases(t *testing.T) {
	bp := blueprintImports(`- name: rootcond.foo
  type: data
  required: false
  schema: {type: string}
  imports:
  - {name: rootcond.bar, type: data, schema: {type: string}}`) + `subinstallations:
- name: subinst-import
  imports:
    data:
    - {name: internalFoo, dataRef: rootcond.foo}
    - {name: internalBar, dataRef: rootcond.bar}
    - {name: internalBaz, dataRef: exp.baz}
  blueprint: {filesystem: {blueprint.yaml: "kind: Blueprint"}}
- name: subinst-export
  exports: {data: [{name: internalBaz, dataRef: exp.baz}]}
  blueprint: {filesystem: {blueprint.yaml: "kind: Blueprint"}}
`
	c := newCluster(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: inst-import}\ndata: {foo: a, bar: b}")
	refs := func(spec string) string {
		inst := installation(t, c, "i"+fmt.Sprint(len(spec)), spec, bp)
		tmpls, err := RenderSubinstallations(context.Background(), c, inst, blueprintOf(t, inst), resolve(t, c, inst))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, imp := range tmpls[0].Imports.Data {
			out = append(out, imp.Name+"="+imp.DataRef)
		}
		return strings.Join(out, ",")
	}
	if got := refs("{}"); got != "internalBaz=exp.baz" {
		t.Errorf("without the parent's imports: %s", got)
	}
	both := "imports: {data: [{name: rootcond.foo, configMapRef: {name: inst-import, key: foo}}, {name: rootcond.bar, configMapRef: {name: inst-import, key: bar}}]}"
	if got := refs(both); got != "internalFoo=rootcond.foo,internalBar=rootcond.bar,internalBaz=exp.baz" {
		t.Errorf("with the parent's imports: %s", got)
	}
	_, err := resolveImports(c, installation(t, c, "cond", "imports: {data: [{name: rootcond.foo, configMapRef: {name: inst-import, key: foo}}]}", bp))
	var ie *ImportError
	if !errors.As(err, &ie) || ie.Reason != ImportReasonNotFound || !strings.Contains(err.Error(), "rootcond.bar") {
		t.Errorf("err = %v, want an ImportNotFound error naming rootcond.bar", err)
	}
}

// exports/constructor_test.go, test5 and test6: exportDataMappings alone
// export a constant; a mapping reads the exports under exports, also by a
// key with dots, and builds a nested value.
func TestLandscaperExportDataMappingCases(t *testing.T) {
	c := newCluster(t)
	inst := installation(t, c, "test5", "importDataMappings: {a.b: foo}\nexportDataMappings: {a.z: bar}\nexports: {data: [{name: a.z, dataRef: my-export}]}",
		blueprintImports("- {name: a.b, type: data, schema: {type: string}}")+"exports:\n- {name: a.z, type: data, schema: {type: string}}\n")
	exps := writeExports(t, c, inst)
	if len(exps.Data) != 1 || exps.Data[0].DataRef != "my-export" || exps.Data[0].Value != "bar" {
		t.Errorf("exports = %+v", exps.Data)
	}
	inst = installation(t, c, "test6", "exports: {data: [{name: root.y, dataRef: root.y}, {name: foo, dataRef: root.z}]}\n"+
		`exportDataMappings: {foo: {some: {arbitrary: {struct: '(( exports["root.z"] ))'}}}}`,
		exportBlueprint("- {name: root.y, schema: {type: string}}\n- {name: root.z, schema: {type: string}}",
			`exports: {root.y: val-c, root.z: val-b}`))
	exps = writeExports(t, c, inst)
	if got := toJSON(exps.Data); got != `[{"DataRef":"root.y","Name":"root.y","Value":"val-c"},{"DataRef":"root.z","Name":"foo","Value":{"some":{"arbitrary":{"struct":"val-b"}}}}]` {
		t.Errorf("exports = %s", got)
	}
}

// exports/constructor_test.go, test4 with blueprint root-2: target exports
// from a deploy item's exports and from a subinstallation's Target in the
// context; a Target of another type there fails the export.
func TestLandscaperTargetExportCases(t *testing.T) {
	bp := blueprintImports("") + `exports:
- {name: root.y, type: target, targetType: landscaper.gardener.cloud/mock}
- {name: root.z, type: target, targetType: landscaper.gardener.cloud/mock}
exportExecutions:
- type: GoTemplate
  template: |
    exports:
      root.y:
    {{ toYaml (index .values.deployitems.deploy "root.y") | indent 4 }}

      {{ $target := index .values.targets "root.z" }}
      root.z:
        type: {{ $target.spec.type }}
        config: {{ $target.spec.config }}
`
	for _, tt := range []struct{ childType, want string }{
		{childType: "landscaper.gardener.cloud/mock", want: `[{"Name":"root.y","Target":"root.y","Value":{"config":"val-a","type":"landscaper.gardener.cloud/mock"}},{"Name":"root.z","Target":"root.z","Value":{"config":"val-e","type":"landscaper.gardener.cloud/mock"}}]`},
		{childType: "unknownType", want: `export "root.z": target type is "unknownType"`},
	} {
		c := newCluster(t)
		root := installation(t, c, "root", "exports: {targets: [{name: root.y, target: root.y}, {name: root.z, target: root.z}]}", bp)
		withDeployItemExports(t, c, root, "{deploy: {root.y: {type: landscaper.gardener.cloud/mock, config: val-a}}}")
		tgt := decodeObject(t, "kind: Target\nmetadata: {name: "+helper.GenerateDataObjectName("Inst.root", "root.z")+
			", labels: {data.landscaper.gardener.cloud/context: Inst.root, data.landscaper.gardener.cloud/key: root.z}}\nspec: {type: "+tt.childType+", config: val-e}")
		create(t, c, tgt)
		exps, err := ConstructExports(context.Background(), c, root, blueprintOf(t, root), resolve(t, c, root))
		if err != nil {
			checkErr(t, err, tt.want, true)
			continue
		}
		if got := toJSON(exps.Targets); got != tt.want {
			t.Errorf("target exports = %s\nwant %s", got, tt.want)
		}
	}
}

// A Target that a targetMapRef selects must have a target map key label:
// Landscaper's NewTargetMapExtensionFromList fails the import without one
// (in ImportsSatisfied), instead of keying it "".
func TestTargetMapRefNeedsTheKeyLabel(t *testing.T) {
	c := newCluster(t, `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: a, labels: {data.landscaper.gardener.cloud/key: clusters, data.landscaper.gardener.cloud/sourceType: import, data.landscaper.gardener.cloud/targetmapkey: k}}
spec: {type: x/y, config: a}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: b, labels: {data.landscaper.gardener.cloud/key: clusters, data.landscaper.gardener.cloud/sourceType: import}}
spec: {type: x/y, config: b}`)
	inst := installation(t, c, "i", "imports: {targets: [{name: m, targetMapRef: clusters}]}",
		blueprintImports("- {name: m, type: targetMap, targetType: x/y}"))
	_, err := resolveImports(c, inst)
	if !IsImportLoadError(err) || err.Error() != "missing label for target map key" {
		t.Errorf("err = %v (import load error: %v), want Landscaper's %q", err, IsImportLoadError(err), "missing label for target map key")
	}
}
