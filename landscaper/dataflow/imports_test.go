package dataflow

import (
	"errors"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// sources are the objects the import tests read.
const sources = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: config}
data: {replicas: 2, name: app}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
data: {user: YWRtaW4=, port: ODA4MA==}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {list: "[a, b]", text: hello}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: mixed}
data: {plain: "1"}
binaryData: {bin: "Mg=="}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: empty}
data: {}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: empty-binary}
data: {plain: "1"}
binaryData: {}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: blue, labels: {team: blue}, annotations: {owner: alice}}
spec: {type: landscaper.gardener.cloud/kubernetes-cluster, config: {kubeconfig: b}}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: green}
spec: {type: landscaper.gardener.cloud/kubernetes-cluster, config: {kubeconfig: g}}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: vm}
spec: {type: example.com/vm, config: {host: h}}`

// blueprintImports wraps import definitions into a blueprint.
func blueprintImports(defs string) string {
	return "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\nimports:\n" + defs + "\n"
}

func TestResolveImports(t *testing.T) {
	tests := []struct {
		name, spec, defs string
		want             string // JSON of the imports values (targets by name)
	}{
		{name: "dataRef", spec: "imports: {data: [{name: c, dataRef: config}]}",
			defs: "- {name: c, type: data, schema: {type: object}}", want: `{"c":{"name":"app","replicas":2}}`},
		{name: "secret key and whole secret", spec: "imports: {data: [{name: u, secretRef: {name: creds, key: user}}, {name: all, secretRef: {name: creds}}]}",
			defs: "- {name: u, schema: {type: string}}\n- {name: all, schema: {type: object}}", want: `{"all":{"port":8080,"user":"admin"},"u":"admin"}`},
		{name: "configmap keys decode YAML", spec: "imports: {data: [{name: l, configMapRef: {name: settings, key: list}}, {name: t, configMapRef: {name: settings, key: text}}]}",
			defs: "- {name: l, schema: {type: array}}\n- {name: t, schema: {type: string}}", want: `{"l":["a","b"],"t":"hello"}`},
		// Landscaper reads binaryData after data, and what it reads there
		// replaces what it read from data (ResolveConfigMapReference).
		{name: "configmap with data and binaryData: binaryData's key", spec: "imports: {data: [{name: b, configMapRef: {name: mixed, key: bin}}]}",
			defs: "- {name: b, schema: {type: integer}}", want: `{"b":2}`},
		{name: "configmap with data and binaryData: binaryData's keys only", spec: "imports: {data: [{name: all, configMapRef: {name: mixed}}]}",
			defs: "- {name: all, schema: {type: object}}", want: `{"all":{"bin":2}}`},
		// The API server keeps no empty map: an empty ConfigMap is null as a
		// whole, and empty binaryData does not hide data.
		{name: "empty configmap", spec: "imports: {data: [{name: e, configMapRef: {name: empty}}]}",
			defs: "- {name: e, schema: {}}", want: `{"e":null}`},
		{name: "configmap with empty binaryData", spec: "imports: {data: [{name: all, configMapRef: {name: empty-binary}}]}",
			defs: "- {name: all, schema: {type: object}}", want: `{"all":{"plain":1}}`},
		{name: "importDataMappings", spec: "imports: {data: [{name: c, dataRef: config}]}\nimportDataMappings: {double: '(( c.replicas * 2 ))'}",
			defs: "- {name: double, schema: {type: integer}}", want: `{"double":4}`},
		{name: "default of an optional import", spec: "{}",
			defs: "- {name: tier, required: false, default: {value: gold}, schema: {type: string}}\n- {name: unset, required: false, schema: {type: string}}",
			want: `{"tier":"gold"}`},
		{name: "conditional imports", spec: "imports: {data: [{name: c, dataRef: config}]}",
			defs: "- {name: c, required: false, schema: {type: object}, imports: [{name: d, required: false, default: {value: 1}, schema: {type: integer}}]}\n" +
				"- {name: disabled, required: false, schema: {type: object}, imports: [{name: never, schema: {type: integer}}]}",
			want: `{"c":{"name":"app","replicas":2},"d":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCluster(t, sources)
			inst := installation(t, c, "i", tt.spec, blueprintImports(tt.defs))
			if got := toJSON(resolve(t, c, inst).Values); got != tt.want {
				t.Errorf("imports = %s\nwant      %s", got, tt.want)
			}
		})
	}
}

func TestResolveTargetImports(t *testing.T) {
	c := newCluster(t, sources)
	inst := installation(t, c, "i", `imports:
  targets:
  - {name: one, target: blue}
  - {name: list, targets: [green, blue]}
  - {name: map, targetMap: {b: blue, g: green}}`, blueprintImports(`- {name: one, type: target, targetType: kubernetes-cluster}
- {name: list, type: targetList, targetType: kubernetes-cluster}
- {name: map, type: targetMap, targetType: landscaper.gardener.cloud/kubernetes-cluster}`))
	imps := resolve(t, c, inst)
	one := imps.Values["one"].(map[string]any)
	if one["kind"] != "Target" || one["apiVersion"] != "landscaper.gardener.cloud/v1alpha1" || one["metadata"].(map[string]any)["name"] != "blue" {
		t.Errorf("target import = %v, want the Target object", one)
	}
	list := imps.Values["list"].([]any)
	if len(list) != 2 || list[0].(map[string]any)["metadata"].(map[string]any)["name"] != "green" {
		t.Errorf("targetList import = %v, want [green, blue]", list)
	}
	if m := imps.Values["map"].(map[string]any); len(m) != 2 || m["g"].(map[string]any)["spec"].(map[string]any)["type"] == nil {
		t.Errorf("targetMap import = %v", m)
	}
	if imps.Hash == "" {
		t.Error("no imports hash")
	}
}

func TestResolveImportsErrors(t *testing.T) {
	tests := []struct {
		name, spec, defs, want string
		terminal               bool
		load                   bool // an ImportLoadError, whose text is exactly want
	}{
		{name: "missing DataObject", spec: "imports: {data: [{name: c, dataRef: nope}]}", defs: "- {name: c, schema: {}}",
			want: `unable to fetch data object nope (/nope): dataobjects.landscaper.gardener.cloud "nope" not found`, load: true},
		{name: "missing Target", spec: "imports: {targets: [{name: t, target: nope}]}", defs: "- {name: t, targetType: x}",
			want: `targets.landscaper.gardener.cloud "nope" not found`, load: true},
		{name: "missing Target in a list", spec: "imports: {targets: [{name: l, targets: [blue, nope]}]}", defs: "- {name: l, type: targetList, targetType: x}",
			want: `targets.landscaper.gardener.cloud "nope" not found`, load: true},
		{name: "missing Target in a map: the first key", spec: "imports: {targets: [{name: m, targetMap: {z: nope2, a: nope1}}]}",
			defs: "- {name: m, type: targetMap, targetType: x}", want: `targets.landscaper.gardener.cloud "nope1" not found`, load: true},
		{name: "single targets are read before lists", spec: "imports: {targets: [{name: l, targets: [nope1]}, {name: t, target: nope2}]}",
			defs: "- {name: l, type: targetList, targetType: x}\n- {name: t, targetType: x}", want: `targets.landscaper.gardener.cloud "nope2" not found`, load: true},
		{name: "missing Secret", spec: "imports: {data: [{name: c, secretRef: {name: nope, key: k}}]}", defs: "- {name: c, schema: {}}",
			want: `secrets "nope" not found`, load: true},
		{name: "missing secret key", spec: "imports: {data: [{name: c, secretRef: {name: creds, key: nope}}]}", defs: "- {name: c, schema: {}}",
			want: `key nope in secret test/creds does not exist`, load: true},
		{name: "missing ConfigMap", spec: "imports: {data: [{name: c, configMapRef: {name: nope, key: k}}]}", defs: "- {name: c, schema: {}}",
			want: `configmaps "nope" not found`, load: true},
		{name: "missing configMap key", spec: "imports: {data: [{name: c, configMapRef: {name: settings, key: nope}}]}", defs: "- {name: c, schema: {}}",
			want: `key 'nope' in configmap 'test/settings' does not exist`, load: true},
		{name: "configMap key only in data, with binaryData", spec: "imports: {data: [{name: c, configMapRef: {name: mixed, key: plain}}]}", defs: "- {name: c, schema: {}}",
			want: `key 'plain' in configmap 'test/mixed' does not exist`, load: true},
		{name: "not provided", spec: "{}", defs: "- {name: c, schema: {type: string}}", terminal: true,
			want: `blueprint defines import "c" of type data, which is not satisfied: spec.imports.data has no import of that name and no importDataMappings entry produces it`},
		{name: "target not provided", spec: "{}", defs: "- {name: t, targetType: x}", terminal: true,
			want: `blueprint defines import "t" of type target, which is not satisfied: spec.imports.targets has no import of that name`},
		{name: "conditional not provided", spec: "imports: {data: [{name: c, dataRef: config}]}", terminal: true,
			defs: "- {name: c, required: false, schema: {}, imports: [{name: d, schema: {}}]}",
			want: `blueprint defines import "d" of type data, which is not satisfied (a conditional import of "c")`},
		{name: "schema", spec: "imports: {data: [{name: c, dataRef: config}]}", defs: "- {name: c, schema: {type: string}}", terminal: true,
			want: `import "c" does not match the blueprint's schema: (root): Invalid type. Expected: string, given: object`},
		{name: "no schema", spec: "imports: {data: [{name: c, dataRef: config}]}", defs: "- {name: c, type: data}", terminal: true,
			want: `blueprint data import "c" has no schema`},
		{name: "target type", spec: "imports: {targets: [{name: t, target: vm}]}", defs: "- {name: t, targetType: kubernetes-cluster}", terminal: true,
			want: `import "t": target type is "example.com/vm", the blueprint wants "landscaper.gardener.cloud/kubernetes-cluster"`},
		{name: "target list type", spec: "imports: {targets: [{name: l, targets: [blue, vm]}]}", defs: "- {name: l, type: targetList, targetType: kubernetes-cluster}",
			terminal: true, want: `import "l": element 1: target type is "example.com/vm"`},
		// Landscaper compares the types without an exception for a blueprint
		// that names none (constructImports).
		{name: "no target type", spec: "imports: {targets: [{name: t, target: blue}]}", defs: "- {name: t, type: target}", terminal: true,
			want: `import "t": target type is "landscaper.gardener.cloud/kubernetes-cluster", the blueprint wants ""`},
		{name: "no target list type", spec: "imports: {targets: [{name: l, targets: [blue]}]}", defs: "- {name: l, type: targetList}", terminal: true,
			want: `import "l": element 0: target type is "landscaper.gardener.cloud/kubernetes-cluster", the blueprint wants ""`},
		{name: "unknown import type", spec: "{}", defs: "- {name: x, type: secret}", terminal: true,
			want: `blueprint import "x" has unknown type "secret" (allowed: data, target, targetList, targetMap)`},
		{name: "mapping", spec: "importDataMappings: {x: '(( nope ))'}", defs: "- {name: x, schema: {}}", terminal: true,
			want: `spec.importDataMappings["x"]: unresolved nodes: (( nope ))`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCluster(t, sources)
			inst := installation(t, c, "i", tt.spec, blueprintImports(tt.defs))
			_, err := resolveImports(c, inst)
			checkErr(t, err, tt.want, tt.terminal)
			if tt.load && (!IsImportLoadError(err) || err.Error() != tt.want) {
				t.Errorf("err = %q (import load error: %v), want exactly %q", err, IsImportLoadError(err), tt.want)
			}
		})
	}
}

func TestImportExecutions(t *testing.T) {
	bp := blueprintImports("- {name: num, schema: {type: integer}}") + `
importExecutions:
- name: first
  type: GoTemplate
  template: |
    bindings:
      double: {{ mul .imports.num 2 }}
- name: second
  type: GoTemplate
  template: |
    bindings:
      quadruple: {{ mul .imports.double 2 }}
    {{- if gt .imports.num 2.0 }}
    errors: ["num is {{ .imports.num }}, at most 2 is allowed"]
    {{- end }}
- name: never
  type: GoTemplate
  template: "bindings: {never: true}"
`
	c := newCluster(t, "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: DataObject\nmetadata: {name: two}\ndata: 2\n---\n"+
		"apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: DataObject\nmetadata: {name: three}\ndata: 3")
	ok := installation(t, c, "ok", "imports: {data: [{name: num, dataRef: two}]}", bp)
	if got := toJSON(resolve(t, c, ok).Values); got != `{"double":4,"never":true,"num":2,"quadruple":8}` {
		t.Errorf("imports = %s", got)
	}
	bad := installation(t, c, "bad", "imports: {data: [{name: num, dataRef: three}]}", bp)
	_, err := resolveImports(c, bad)
	checkErr(t, err, `importExecution "second": import validation failed: num is 3, at most 2 is allowed`, true)
}

// TestTargetTypeLandscaperText checks Landscaper's words for a target, an
// element of a target list and one of a target map of the wrong type, and
// that a target without a type has none (Landscaper's error is another).
func TestTargetTypeLandscaperText(t *testing.T) {
	target := func(typ any) map[string]any {
		return map[string]any{"spec": map[string]any{"type": typ}}
	}
	ok, bad := target("want"), target("other")
	cases := []struct {
		typ  lsv1alpha1.ImportType
		val  any
		want string
	}{
		{lsv1alpha1.ImportTypeTarget, bad, "imported target type is other but expected want"},
		{lsv1alpha1.ImportTypeTargetList, []any{ok, bad}, "type of the element at position 1 of the imported targetlist is other but expected want"},
		{lsv1alpha1.ImportTypeTargetMap, map[string]any{"a": ok, "b": bad}, "type of the element at position b of the imported targetmap is other but expected want"},
		{lsv1alpha1.ImportTypeTarget, map[string]any{"spec": map[string]any{}}, ""},
	}
	for _, tc := range cases {
		err := checkTargetTypes(lsv1alpha1.ImportDefinition{FieldValueDefinition: lsv1alpha1.FieldValueDefinition{Name: "x", TargetType: "want"}, Type: tc.typ}, tc.val)
		var tt *targetTypeError
		if !errors.As(err, &tt) {
			t.Fatalf("%s %v: got %v, want a targetTypeError", tc.typ, tc.val, err)
		}
		if tt.landscaper != tc.want {
			t.Errorf("%s: Landscaper's text %q, want %q", tc.typ, tt.landscaper, tc.want)
		}
	}
}
