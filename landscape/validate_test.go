package landscape

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validationCases are documents that decode but are invalid, with the
// messages expected for document 1 of x.yaml, without the
// "x.yaml: document 1: KIND "NAME": " prefix. The parity test checks them
// against Landscaper's own validation.
var validationCases = []struct {
	name string
	doc  string
	want []string
	// stricter is set when Landscaper's validation accepts the object.
	stricter bool
}{{
	name: "valid installation",
	doc: installation("ok", `  imports:
    data:
    - {name: a, dataRef: do-a}
    - {name: b, secretRef: {name: s, key: k}}
    - {name: c, configMapRef: {name: c}}
    targets:
    - {name: t1, target: t}
    - {name: t2, targets: []}
    - {name: t3, targetListRef: list}
    - {name: t4, targetMap: {x.y: t}}
    - {name: t5, targetMapRef: map}
  exports:
    data: [{name: a, dataRef: out-a}]
    targets: [{name: a, target: out-t}]
`),
}, {
	name: "blueprint with neither ref nor inline",
	doc:  lsAPI + "kind: Installation\nmetadata: {name: i}\nspec:\n  blueprint: {}\n",
	want: []string{"spec.blueprint.definition: Required value: exactly one of [Inline, Reference] must be set (currently set: none) " +
		"(set exactly one of the keys inline or ref)"},
}, {
	name: "blueprint with ref and inline",
	doc:  installation("i", "") + "    ref: {resourceName: bp}\n",
	want: []string{"spec.blueprint.definition: Invalid value: {...}: exactly one of [Inline, Reference] must be set " +
		"(currently set: [Reference, Inline]) (set exactly one of the keys inline or ref)"},
}, {
	name:     "blueprint ref without resource name",
	doc:      lsAPI + "kind: Installation\nmetadata: {name: i}\nspec:\n  blueprint: {ref: {resourceName: ''}}\n",
	want:     []string{"spec.blueprint.ref.resourceName: Required value"},
	stricter: true,
}, {
	name: "inline blueprint without filesystem",
	doc:  lsAPI + "kind: Installation\nmetadata: {name: i}\nspec:\n  blueprint: {inline: {}}\n",
	want: []string{"spec.blueprint.inline.filesystem is missing: " +
		"want a mapping of file names to contents, with blueprint.yaml at its root"},
	stricter: true,
}, {
	name: "inline filesystem that is a string",
	doc:  lsAPI + "kind: Installation\nmetadata: {name: i}\nspec:\n  blueprint: {inline: {filesystem: blueprint.yaml}}\n",
	want: []string{"spec.blueprint.inline.filesystem: got a string, " +
		"want a mapping of file names to contents, with blueprint.yaml at its root"},
	stricter: true,
}, {
	name: "inline filesystem without blueprint.yaml",
	doc: lsAPI + "kind: Installation\nmetadata: {name: i}\nspec:\n  blueprint:\n    inline:\n      filesystem:\n" +
		"        blueprint.yml: x\n        templates: {a.yaml: x}\n",
	want:     []string{"spec.blueprint.inline.filesystem has no blueprint.yaml at its root (found: blueprint.yml, templates/)"},
	stricter: true,
}, {
	name:     "empty inline filesystem",
	doc:      lsAPI + "kind: Installation\nmetadata: {name: i}\nspec:\n  blueprint: {inline: {filesystem: {}}}\n",
	want:     []string{"spec.blueprint.inline.filesystem has no blueprint.yaml at its root (found: nothing)"},
	stricter: true,
}, {
	name: "blueprint.yaml that is a folder",
	doc:  lsAPI + "kind: Installation\nmetadata: {name: i}\nspec:\n  blueprint: {inline: {filesystem: {blueprint.yaml: {kind: Blueprint}}}}\n",
	want: []string{"spec.blueprint.inline.filesystem: blueprint.yaml is a folder, want a file: " +
		"its content as a string (blueprint.yaml: |)"},
	stricter: true,
}, {
	name:     "blueprint.yaml that is a list",
	doc:      lsAPI + "kind: Installation\nmetadata: {name: i}\nspec:\n  blueprint: {inline: {filesystem: {blueprint.yaml: [1]}}}\n",
	want:     []string{"spec.blueprint.inline.filesystem: blueprint.yaml is a list, want its content as a string (blueprint.yaml: |)"},
	stricter: true,
}, {
	name: "blueprint.yaml as a typed yamlfs file",
	doc: lsAPI + "kind: Installation\nmetadata: {name: i}\nspec:\n  blueprint:\n    inline:\n      filesystem:\n" +
		"        blueprint.yaml: {$type: yaml, value: {kind: Blueprint}}\n",
}, {
	name: "component descriptor with neither ref nor inline",
	doc:  installation("i", "  componentDescriptor: {}\n"),
	want: []string{"spec.componentDescriptor.definition: Required value: exactly one of [Inline, Reference] must be set " +
		"(currently set: none) (set exactly one of the keys inline or ref)"},
}, {
	name: "data imports",
	doc: installation("i", `  imports:
    data:
    - {dataRef: a}
    - {name: b}
    - {name: c, dataRef: c, secretRef: {name: s}}
    - {name: d, secretRef: {key: k}}
    - {name: e, configMapRef: {key: k}}
`),
	want: []string{
		"spec.imports.data[0].name: Required value: name must not be empty",
		"spec.imports.data[1]: Required value: exactly one of [DataRef, SecretRef, ConfigMapRef] must be set " +
			"(currently set: none) (set exactly one of the keys dataRef, secretRef or configMapRef)",
		`spec.imports.data[2]: Invalid value: {"name":"c","dataRef":"c","secretRef":{"name":"s","key":""}}: ` +
			"exactly one of [DataRef, SecretRef, ConfigMapRef] must be set (currently set: [DataRef, SecretRef]) " +
			"(set exactly one of the keys dataRef, secretRef or configMapRef)",
		"spec.imports.data[3].secretRef.name: Required value: name must not be empty",
		"spec.imports.data[4].configMapRef.name: Required value: name must not be empty",
	},
}, {
	name: "target imports",
	doc: installation("i", `  imports:
    targets:
    - {target: a}
    - {name: b}
    - {name: c, target: c, targets: [d]}
    - {name: d, targets: [a, ""]}
    - {name: e, targetMap: {"A_B": a, ok: ""}}
`),
	want: []string{
		"spec.imports.targets[0].name: Required value: name must not be empty",
		"spec.imports.targets[1]: Required value: exactly one of [Target, Targets, TargetMap, TargetMapReference, " +
			"TargetListReference] must be set (currently set: none) " +
			"(set exactly one of the keys target, targets, targetMap, targetMapRef or targetListRef)",
		`spec.imports.targets[2]: Invalid value: {"name":"c","target":"c","targets":["d"]}: exactly one of [Target, ` +
			"Targets, TargetMap, TargetMapReference, TargetListReference] must be set (currently set: [Target, Targets]) " +
			"(set exactly one of the keys target, targets, targetMap, targetMapRef or targetListRef)",
		"spec.imports.targets[3].targets[1]: Required value: target must not be empty (want the name of a Target)",
		`spec.imports.targets[4].targetMap[A_B]: Invalid value: "A_B": key must contain only lower-case alphanumeric ` +
			"characters, dots, or dashes; it must begin and end with a lower-case alphanumeric character; " +
			"it must not be empty, and not longer than 63 characters",
		"spec.imports.targets[4].targetMap[ok]: Required value: target must not be empty (want the name of a Target)",
	},
}, {
	name: "duplicate import names, across data and targets",
	doc: installation("i", `  imports:
    data: [{name: a, dataRef: a}, {name: a, dataRef: b}]
    targets: [{name: a, target: t}]
`),
	want: []string{
		`spec.imports.data[1]: Duplicate value: "a" (import names are unique across spec.imports.data and spec.imports.targets)`,
		`spec.imports.targets[0]: Duplicate value: "a" (import names are unique across spec.imports.data and spec.imports.targets)`,
	},
}, {
	name: "exports",
	doc: installation("i", `  exports:
    data: [{name: a, dataRef: a}, {name: a, dataRef: b}, {dataRef: c}, {name: d}]
    targets: [{name: a, target: t}, {name: b}, {name: b, target: u}]
`),
	want: []string{
		`spec.exports.data[1]: Duplicate value: "a" (export names are unique among spec.exports.data)`,
		"spec.exports.data[2].name: Required value: name must not be empty",
		"spec.exports.data[3].dataRef: Required value: dataRef must not be empty",
		"spec.exports.targets[1].target: Required value: target must not be empty (want the name of a Target)",
		`spec.exports.targets[2]: Duplicate value: "b" (export names are unique among spec.exports.targets)`,
	},
}, {
	name: "valid target",
	doc: lsAPI + "kind: Target\nmetadata: {name: t}\nspec:\n  type: landscaper.gardener.cloud/kubernetes-cluster\n" +
		"  config: {kubeconfig: x}\n",
}, {
	name:     "target without type",
	doc:      lsAPI + "kind: Target\nmetadata: {name: t}\nspec: {config: {}}\n",
	want:     []string{"spec.type: Required value (e.g. landscaper.gardener.cloud/kubernetes-cluster)"},
	stricter: true,
}, {
	name: "target with config and secretRef",
	doc:  lsAPI + "kind: Target\nmetadata: {name: t}\nspec: {type: x, config: {a: 1}, secretRef: {name: s}}\n",
	want: []string{`spec: Invalid value: {"type":"x","config":{"a":1},"secretRef":{"name":"s","key":""}}: ` +
		"either config or secretRef may be set, not both (keep one of the keys config and secretRef)"},
}, {
	name:     "target secretRef without name",
	doc:      lsAPI + "kind: Target\nmetadata: {name: t}\nspec: {type: x, secretRef: {key: k}}\n",
	want:     []string{"spec.secretRef.name: Required value"},
	stricter: true,
}, {
	name: "deploy item",
	doc:  lsAPI + "kind: DeployItem\nmetadata: {name: d}\nspec: {target: {name: ''}}\n",
	want: []string{
		"spec.type: Required value: type must not be empty (e.g. landscaper.gardener.cloud/mock)",
		"spec.target.name: Required value: target name must not be empty",
		"spec.target.namespace: Required value: target namespace must not be empty",
	},
}, {
	name: "execution deploy items",
	doc: lsAPI + `kind: Execution
metadata: {name: e}
spec:
  deployItems:
  - {type: t}
  - {name: a}
  - {name: b, type: t, target: {name: x}, labels: {"a b": c}}
  - {name: b, type: t}
`,
	want: []string{
		"spec.deployItems[0].name: Required value: name must not be empty",
		"spec.deployItems[1][a].type: Required value: type must not be empty (e.g. landscaper.gardener.cloud/mock)",
		"spec.deployItems[2][b].target.namespace: Required value: namespace must not be empty",
		`spec.deployItems[2][b].labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', ` +
			`and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', ` +
			`regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		`spec.deployItems[3]: Duplicate value: "b" (deploy item names are unique in an Execution: first at spec.deployItems[2])`,
	},
}, {
	name: "execution dependencies",
	doc: lsAPI + `kind: Execution
metadata: {name: e}
spec:
  deployItems:
  - {name: a, type: t, dependsOn: [c]}
  - {name: b, type: t, dependsOn: [a, x]}
  - {name: c, type: t, dependsOn: [b]}
  - {name: d, type: t, dependsOn: [d]}
`,
	want: []string{
		`spec.deployItems: Invalid value: ["a","c","b"]: cycle found in dependencies ` +
			"(dependsOn a -> c -> b -> a: remove one of these dependencies)",
		`spec.deployItems: Invalid value: ["d"]: cycle found in dependencies (dependsOn d -> d: remove one of these dependencies)`,
		`spec.deployItems[1][b]: Invalid value: "x": depends on undefined deploy item (deploy items of this Execution: a, b, c, d)`,
	},
}}

func TestValidation(t *testing.T) {
	for _, tt := range validationCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := (&Loader{FS: mapFS(map[string]string{"x.yaml": tt.doc})}).Load()
			var got []string
			for _, line := range problemLines(t, err) {
				_, msg, ok := strings.Cut(line, `": `)
				if !strings.HasPrefix(line, "x.yaml: document 1: ") || !ok {
					t.Fatalf("problem %q is not about document 1 of x.yaml", line)
				}
				got = append(got, msg)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestFieldErrorFormat(t *testing.T) {
	long := map[string]string{"kubeconfig": strings.Repeat("x", 100)}
	errs := field.ErrorList{
		field.Invalid(field.NewPath("spec"), long, "either config or secretRef may be set, not both"),
		field.Invalid(field.NewPath("spec", "deployItems"), []string{"a", "b"}, "cycle found in dependencies"),
		field.Required(field.NewPath("spec", "imports", "targets").Index(0).Child("targetMap").Key("z"), "target must not be empty"),
		field.Required(field.NewPath("spec", "imports", "targets").Index(0).Child("targetMap").Key("a"), "target must not be empty"),
	}
	got := fieldErrors(errs, func(e *field.Error) string {
		if e.Type == field.ErrorTypeRequired {
			return "hint"
		}
		return ""
	})
	want := []string{
		"spec: Invalid value: {...}: either config or secretRef may be set, not both",
		`spec.deployItems: Invalid value: ["a","b"]: cycle found in dependencies`,
		"spec.imports.targets[0].targetMap[a]: Required value: target must not be empty (hint)",
		"spec.imports.targets[0].targetMap[z]: Required value: target must not be empty (hint)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
