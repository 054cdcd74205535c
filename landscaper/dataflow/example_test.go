package dataflow_test

import (
	"context"
	"encoding/json"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// blueprintYAML imports a greeting, renders a mock deploy item that exports
// it, and exports what the deploy item exported.
const blueprintYAML = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: greeting, type: data, schema: {type: string}}
exports:
- {name: message, type: data, schema: {type: string}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: say
      type: landscaper.gardener.cloud/mock
      config: {export: {said: "{{ .imports.greeting }}, world"}}
exportExecutions:
- name: main
  type: GoTemplate
  template: |
    exports:
      message: {{ .deployitems.say.said }}
`

// The calls of the installation controller for a root installation: Init
// resolves and writes the imports and renders the deploy items; after the
// deployers ran, Completing constructs and writes the exports.
func Example() {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	must(c.Create(ctx, &lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "greeting", Namespace: "demo"},
		Data: lsv1alpha1.NewAnyJSON([]byte(`"hello"`))}))
	fs, _ := json.Marshal(map[string]string{"blueprint.yaml": blueprintYAML})
	inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: "demo"},
		Spec: lsv1alpha1.InstallationSpec{
			Blueprint: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON(fs)}},
			Imports:   lsv1alpha1.InstallationImports{Data: []lsv1alpha1.DataImport{{Name: "greeting", DataRef: "greeting"}}},
			Exports:   lsv1alpha1.InstallationExports{Data: []lsv1alpha1.DataExport{{Name: "message", DataRef: "app-message"}}},
		}}
	must(c.Create(ctx, inst))
	bp, err := blueprint.ForInstallation(inst, nil)
	must(err)

	// Init
	imps, err := dataflow.ResolveImports(ctx, c, inst, bp, nil)
	must(err)
	must(dataflow.WriteImports(ctx, c, inst, imps))
	items, err := dataflow.RenderDeployItems(ctx, c, inst, bp, imps)
	must(err)
	fmt.Printf("deploy item %s: %s\n", items[0].Name, items[0].Configuration.Raw)

	// The execution controller collects the deploy items' exports.
	writeExecutionExports(ctx, c, inst, `{"say": {"said": "hello, world"}}`)

	// Completing
	exps, err := dataflow.ConstructExports(ctx, c, inst, bp, imps)
	must(err)
	must(dataflow.WriteExports(ctx, c, inst, exps))
	fmt.Printf("export %s → DataObject %s: %v\n", exps.Data[0].Name, exps.Data[0].DataRef, exps.Data[0].Value)
	// Output:
	// deploy item say: {"export":{"said":"hello, world"}}
	// export message → DataObject app-message: hello, world
}

// writeExecutionExports stands in for the execution controller: the
// Execution of inst, with status.exportRef naming a DataObject of exports.
func writeExecutionExports(ctx context.Context, c *fakecluster.Cluster, inst *lsv1alpha1.Installation, exports string) {
	yes := true
	exec := &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Name: inst.Name, Namespace: inst.Namespace,
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "landscaper.gardener.cloud/v1alpha1", Kind: "Installation",
			Name: inst.Name, UID: inst.UID, Controller: &yes}}}}
	must(c.Create(ctx, exec))
	must(c.Create(ctx, &lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "exec-exports", Namespace: inst.Namespace},
		Data: lsv1alpha1.NewAnyJSON([]byte(exports))}))
	exec.Status.ExportReference = &lsv1alpha1.ObjectReference{Name: "exec-exports", Namespace: inst.Namespace}
	must(c.UpdateStatus(ctx, exec))
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
