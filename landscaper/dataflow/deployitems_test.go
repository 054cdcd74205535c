package dataflow

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"

	"github.com/lscli/lscli/reconcile"
)

// deployBlueprint is a blueprint importing targets whose deploy execution
// renders items.
func deployBlueprint(items string) string {
	return blueprintImports(`- {name: one, type: target, targetType: kubernetes-cluster}
- {name: list, type: targetList, targetType: kubernetes-cluster}
- {name: map, type: targetMap, targetType: landscaper.gardener.cloud/kubernetes-cluster}`) + "deployExecutions:\n- name: main\n  type: GoTemplate\n  template: |\n    deployItems:\n" +
		"    " + strings.ReplaceAll(strings.TrimSpace(items), "\n", "\n    ") + "\n"
}

const targetSpec = `imports:
  targets:
  - {name: one, target: blue}
  - {name: list, targets: [green, blue]}
  - {name: map, targetMap: {b: blue}}`

func TestRenderDeployItemsTargets(t *testing.T) {
	tests := []struct {
		name, target, want string
	}{
		{name: "import", target: "{import: one}", want: "blue"},
		{name: "list index", target: "{import: list, index: 0}", want: "green"},
		{name: "map key", target: "{import: map, key: b}", want: "blue"},
		{name: "name", target: "{name: elsewhere}", want: "elsewhere"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCluster(t, sources)
			inst := installation(t, c, "i", targetSpec, deployBlueprint("- {name: a, type: t, config: {}, target: "+tt.target+"}"))
			items, err := RenderDeployItems(context.Background(), c, inst, blueprintOf(t, inst), resolve(t, c, inst))
			if err != nil {
				t.Fatal(err)
			}
			if len(items) != 1 || items[0].Target == nil || items[0].Target.Name != tt.want || items[0].Target.Namespace != ns {
				t.Errorf("target = %+v, want %s", items[0].Target, tt.want)
			}
		})
	}
}

func TestRenderDeployItemsErrors(t *testing.T) {
	tests := []struct {
		name, items, want string
	}{
		{name: "unknown import", items: "- {name: a, type: t, config: {}, target: {import: nope}}",
			want: `deploy item "a": target import "nope" is not a target import of the installation (known: list (targetList), map (targetMap), one (target))`},
		{name: "index out of range", items: "- {name: a, type: t, config: {}, target: {import: list, index: 2}}",
			want: `deploy item "a": index 2 is out of range: targetList import "list" has 2 targets`},
		{name: "not a list", items: "- {name: a, type: t, config: {}, target: {import: one, index: 0}}",
			want: `targetList import "one" is not a targetList import`},
		{name: "unknown key", items: "- {name: a, type: t, config: {}, target: {import: map, key: x}}",
			want: `deploy item "a": key "x" is not in targetMap import "map"`},
		{name: "empty target", items: "- {name: a, type: t, config: {}, target: {}}", want: `deploy item "a": target names neither import nor name`},
		{name: "no name", items: "- {type: t, config: {}}", want: "rendered deploy items: error validating deployitem templates: deployExecutions[0].name: Required value: name must not be empty"},
		{name: "duplicate", items: "- {name: a, type: t, config: {}}\n- {name: a, type: t, config: {}}", want: `deployExecutions[1]: Duplicate value: "a" (deploy item names are unique: first at deployExecutions[0])`},
		{name: "no type", items: "- {name: a, config: {}}", want: `deployExecutions[0][a].type: Required value: type must not be empty`},
		{name: "unknown dependency", items: "- {name: a, type: t, config: {}, dependsOn: [b]}",
			want: `deployExecutions[0][a]: Invalid value: "b": depends on undefined deploy item (rendered deploy items: a)`},
		{name: "cycle", items: "- {name: a, type: t, config: {}, dependsOn: [b]}\n- {name: b, type: t, config: {}, dependsOn: [a]}",
			want: `deployExecutions: Invalid value: ["a","b"]: cycle found in dependencies (dependsOn a -> b -> a: none of them can start)`},
		{name: "template", items: "- {name: {{ .nope.x }}}", want: `deployExecution "main": line 2, column 17: at <.nope.x>: nil pointer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCluster(t, sources)
			inst := installation(t, c, "i", targetSpec, deployBlueprint(tt.items))
			_, err := RenderDeployItems(context.Background(), c, inst, blueprintOf(t, inst), resolve(t, c, inst))
			checkErr(t, err, "installation test/i: ", true)
			checkErr(t, err, tt.want, true)
		})
	}
}

func TestDeployExecutionBindings(t *testing.T) {
	c := newCluster(t, sources)
	inst := installation(t, c, "i", `imports: {data: [{name: cfg, dataRef: config}]}
componentDescriptor:
  inline:
    meta: {schemaVersion: v2}
    component: {name: example.com/app, version: 1.0.0, provider: internal, repositoryContexts: [{type: ociRegistry, baseUrl: r.io}], sources: [], componentReferences: [],
      resources: [{name: img, type: ociImage, version: 1.0.0, relation: external, access: {type: ociRegistry, imageReference: r.io/img:1.0.0}}]}`,
		blueprintImports("- {name: cfg, schema: {}}")+`deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: a
      type: t
      config:
        imports: {{ .imports | toJson }}
        cd: {{ .cd.component.name }}
        components: {{ len .components.components }}
        image: {{ (getResource .cd "name" "img").access.imageReference }}
        blueprint: {{ .blueprint.inline | empty | not }}
        blueprintDef: {{ eq (toJson .blueprint) (toJson .blueprintDef) }}
        componentDescriptorDef: {{ .componentDescriptorDef.inline.component.version }}
        state: {{ .state | toJson }}
`)
	items, err := RenderDeployItems(context.Background(), c, inst, blueprintOf(t, inst), resolve(t, c, inst))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"blueprint":true,"blueprintDef":true,"cd":"example.com/app","componentDescriptorDef":"1.0.0","components":1,` +
		`"image":"r.io/img:1.0.0","imports":{"cfg":{"name":"app","replicas":2}},"state":{}}`
	if got := string(items[0].Configuration.Raw); got != want {
		t.Errorf("bindings =\n%s\nwant\n%s", got, want)
	}
}

func TestDeployExecutionState(t *testing.T) {
	c := newCluster(t)
	inst := installation(t, c, "i", "{}", blueprintImports("")+`deployExecutions:
- name: main
  type: GoTemplate
  template: |
    {{- $count := add (default 0 .state.count) 1 }}
    state: {count: {{ $count }}}
    deployItems:
    - {name: a, type: t, config: {run: {{ $count }}}}
`)
	bp := blueprintOf(t, inst)
	for run := 1; run <= 2; run++ {
		items, err := RenderDeployItems(context.Background(), c, inst, bp, resolve(t, c, inst))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(items[0].Configuration.Raw); got != `{"run":`+string(rune('0'+run))+`}` {
			t.Errorf("run %d: config = %s", run, got)
		}
	}
	s := &corev1.Secret{}
	get(t, c, StateSecretName(inst, "deploy", "main"), s)
	if string(s.Data[lsv1alpha1.DataObjectSecretDataKey]) != `{"count":2}` {
		t.Errorf("state = %s", s.Data[lsv1alpha1.DataObjectSecretDataKey])
	}
	if len(s.OwnerReferences) != 1 || s.OwnerReferences[0].Controller == nil || !*s.OwnerReferences[0].Controller {
		t.Errorf("state secret is not controlled by the installation: %+v", s.OwnerReferences)
	}
}

// A Spiff deploy execution that does not evaluate: render and validate get
// lscli's one-line message, the status (reconcile.StatusText) Landscaper's, Spiff's
// message and the template input (imports, values and state hidden), with
// the "state" binding an earlier GoTemplate execution set.
func TestRenderDeployItemsSpiffError(t *testing.T) {
	c := newCluster(t)
	bp := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n" +
		"deployExecutions:\n- {name: first, type: GoTemplate, template: 'deployItems: []'}\n" +
		"- {name: main, type: Spiff, template: {deployItems: [{name: a, type: t, config: {x: '(( imports.x ))'}}]}}\n"
	inst := installation(t, c, "i", "{}", bp)
	_, err := RenderDeployItems(context.Background(), c, inst, blueprintOf(t, inst), resolve(t, c, inst))
	wantLscli := `installation test/i: deployExecution "main": unresolved nodes: (( imports.x )) in main deployItems.[0].config.x (deployItems.name:a.config.x) *'imports.x' not found`
	if err == nil || err.Error() != wantLscli {
		t.Fatalf("err = %v, want %s", err, wantLscli)
	}
	got := reconcile.StatusText(err)
	want := "unresolved nodes:\n" +
		"\t(( imports.x ))\tin template\tdeployItems.[0].config.x\t(deployItems.name:a.config.x)\t*'imports.x' not found\n" +
		"template input:\n"
	if !strings.HasPrefix(got, want) {
		t.Fatalf("StatusText =\n%s\nwant it to start with\n%s", got, want)
	}
	for _, line := range []string{"\n\tcd: null\n", "\n\timports: {}\n", "\n\tstate: {}\n"} {
		if !strings.Contains(got, line) {
			t.Errorf("StatusText =\n%s\nwant the line %q", got, line)
		}
	}
}
