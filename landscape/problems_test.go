package landscape

import (
	"slices"
	"strings"
	"testing"
)

const (
	lsGV  = "landscaper.gardener.cloud/v1alpha1"
	lsAPI = "apiVersion: " + lsGV + "\n"
	// inline is a valid spec.blueprint.
	inline = "  blueprint:\n    inline:\n      filesystem:\n        blueprint.yaml: |\n          kind: Blueprint\n"
)

// rename is the hint of a duplicate object.
const rename = " (a landscape holds each object once: rename one, or name the files to apply, as with kubectl apply -f)"

// installation returns an Installation named name with spec lines after the
// blueprint.
func installation(name, spec string) string {
	return lsAPI + "kind: Installation\nmetadata:\n  name: " + name + "\nspec:\n" + inline + spec
}

// TestLoadProblems checks every message about files and documents.
func TestLoadProblems(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		paths []string
		want  []string
	}{{
		name:  "missing path",
		files: map[string]string{"a.yaml": dataObject("a")},
		paths: []string{"a.yaml", "examples/missing.yaml", "b"},
		want:  []string{"examples/missing.yaml: no such file or directory", "b: no such file or directory"},
	}, {
		name:  "path outside the file system",
		paths: []string{"../x", "/abs"},
		want: []string{`../x: not a valid path: want a relative path with forward slashes and no ".."`,
			`/abs: not a valid path: want a relative path with forward slashes and no ".."`},
	}, {
		name:  "directory without YAML",
		files: map[string]string{"d/readme.md": "x", "d/.hidden/a.yaml": dataObject("a")},
		paths: []string{"d"},
		want:  []string{"d: has no *.yaml or *.yml files (hidden, blueprint and helm chart folders are skipped)"},
	}, {
		name: "directory with only templates, as the guided tour's hello-world",
		files: map[string]string{"d/installation/installation.yaml.tpl": "name: ${name}", "d/installation/target.yml.tpl": "x",
			"d/.hidden/a.yaml.tpl": "x", "d/chart/Chart.yaml": "apiVersion: v2\nname: app\n", "d/chart/templates/cm.yaml": "{{ if }}"},
		paths: []string{"d"},
		want: []string{"d: has no *.yaml or *.yml files, only templates such as d/installation/installation.yaml.tpl, " +
			"d/installation/target.yml.tpl, which lscli does not read: fill in their ${...} variables with envsubst " +
			"into *.yaml files first (see docs/components.md)"},
	}, {
		name:  "blueprint folder",
		files: map[string]string{"bp/blueprint.yaml": lsAPI + "kind: Blueprint\n"},
		paths: []string{"bp"},
		want: []string{"bp: is a blueprint folder (its blueprint.yaml has kind Blueprint), not a landscape: " +
			"name the files or folders that hold the Installations"},
	}, {
		name:  "helm chart folder",
		files: map[string]string{"chart/Chart.yaml": "apiVersion: v2\nname: app\n", "chart/templates/cm.yaml": "{{ if }}"},
		paths: []string{"chart"},
		want: []string{"chart: is a helm chart folder (it has a Chart.yaml), not a landscape: " +
			"name the files or folders that hold the Installations"},
	}, {
		name: "invalid YAML, with lines of the file",
		files: map[string]string{"a.yaml": dataObject("a") + "---\n" + "kind: x\nmetadata:\n  name: b\n name: c\n" +
			"---\nkey: 1\nkey: 2\n---\nbad: [\n"},
		want: []string{
			"a.yaml: document 2: invalid YAML: line 9: did not find expected key",
			`a.yaml: document 3: invalid YAML: line 13: key "key" already set in map`,
			"a.yaml: document 4: invalid YAML: line 15: did not find expected node content",
		},
	}, {
		name:  "not a mapping",
		files: map[string]string{"a.yaml": "- a\n---\nhello\n---\n42\n"},
		want: []string{
			"a.yaml: document 1: got a list, want an object: a mapping with apiVersion, kind and metadata",
			"a.yaml: document 2: got a string, want an object: a mapping with apiVersion, kind and metadata",
			"a.yaml: document 3: got a number, want an object: a mapping with apiVersion, kind and metadata",
		},
	}, {
		name: "missing or unknown apiVersion and kind",
		files: map[string]string{"a.yaml": strings.Join([]string{
			"metadata: {name: a}\n",
			lsAPI + "metadata: {name: b}\n",
			"kind: Installation\nmetadata: {name: c}\n",
			"apiVersion: landscaper.gardener.cloud/v1\nkind: Installation\nmetadata: {name: d}\n",
			lsAPI + "kind: installation\nmetadata: {name: e}\n",
			lsAPI + "kind: Blueprint\n",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: f}\n",
			"apiVersion: v1\nkind: List\nitems: []\n",
			lsAPI + "kind: [Installation]\n",
			"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: g}\n",
		}, "---\n")},
		want: []string{
			`a.yaml: document 1: object "a": apiVersion and kind are missing (known: landscaper.gardener.cloud/v1alpha1 ` +
				`ComponentVersionOverwrites, Context, DataObject, DeployItem, Execution, Installation, Target, TargetSync; v1 ConfigMap, Secret)`,
			`a.yaml: document 2: object "b": kind is missing (known in landscaper.gardener.cloud/v1alpha1: ` +
				`landscaper.gardener.cloud/v1alpha1 ComponentVersionOverwrites, Context, DataObject, DeployItem, Execution, Installation, Target, TargetSync; v1 ConfigMap, Secret)`,
			`a.yaml: document 3: Installation "c": apiVersion is missing (want landscaper.gardener.cloud/v1alpha1 for kind Installation)`,
			`a.yaml: document 4: Installation "d": unknown apiVersion "landscaper.gardener.cloud/v1" for kind Installation ` +
				`(want landscaper.gardener.cloud/v1alpha1)`,
			`a.yaml: document 5: installation "e": unknown kind "installation" (did you mean "Installation"?)`,
			`a.yaml: document 6: Blueprint: unknown kind "Blueprint": a Blueprint is not an API object: ` +
				`put it into an Installation's spec.blueprint.inline.filesystem as the file blueprint.yaml`,
			`a.yaml: document 7: Deployment "f": unknown kind "Deployment" (known: landscaper.gardener.cloud/v1alpha1 ` +
				`ComponentVersionOverwrites, Context, DataObject, DeployItem, Execution, Installation, Target, TargetSync; v1 ConfigMap, Secret): ` +
				`lscli applies only these; keep other manifests out of the folders it reads, or name the files to apply`,
			`a.yaml: document 8: List: unknown kind "List": a List is not supported: write its items as separate documents, separated by ---`,
			`a.yaml: document 9: kind: got a list, want a string`,
			`a.yaml: document 10: ClusterRoleBinding "g": unknown kind "ClusterRoleBinding": lscli authenticates nothing, ` +
				`so the ServiceAccounts and RBAC objects that self and OIDC Targets need on a cluster are not needed: ` +
				`leave them out of the folders it reads, or name the files to apply`,
		},
	}, {
		name: "unknown fields, with exact case",
		files: map[string]string{"a.yaml": installation("a", "  contxt: x\n  Imports: {}\n") +
			"metadata2: {}\n" + "status:\n  phase: Succeeded\n  bogus: 1\n"},
		want: []string{
			`a.yaml: document 1: Installation "a": unknown field "metadata2"`,
			`a.yaml: document 1: Installation "a": unknown field "spec.Imports"`,
			`a.yaml: document 1: Installation "a": unknown field "spec.contxt"`,
			`a.yaml: document 1: Installation "a": unknown field "status.bogus"`,
		},
	}, {
		// gardener/landscaper-examples ships configMapRefs with a
		// namespace (imports/configmap-bin, render-blueprint/schema-in-cd):
		// Landscaper's LocalConfigMapReference and LocalSecretReference have
		// name and key only, and read from the installation's namespace.
		name: "a namespace in a configMapRef or secretRef of an import",
		files: map[string]string{"a.yaml": installation("a", "  imports:\n    data:\n"+
			"    - {name: x, configMapRef: {name: c, namespace: other, key: k}}\n"+
			"    - {name: b, secretRef: {name: s, namespace: other, key: k}}\n")},
		want: []string{
			`a.yaml: document 1: Installation "a": unknown field "spec.imports.data[0].configMapRef.namespace": ` +
				`an import reads the ConfigMap in the installation's namespace (configMapRef has name and key only): remove namespace`,
			`a.yaml: document 1: Installation "a": unknown field "spec.imports.data[1].secretRef.namespace": ` +
				`an import reads the Secret in the installation's namespace (secretRef has name and key only): remove namespace`,
		},
	}, {
		name: "unknown fields in an Execution's deploy items",
		files: map[string]string{"e.yaml": lsAPI + "kind: Execution\nmetadata: {name: e}\nspec:\n  Context: x\n" +
			"  deployItems:\n  - name: a\n    Type: t\n    type: t\n    config: {free: form}\n"},
		want: []string{
			`e.yaml: document 1: Execution "e": unknown field "spec.Context"`,
			`e.yaml: document 1: Execution "e": unknown field "spec.deployItems[0].Type"`,
		},
	}, {
		name: "wrong types",
		files: map[string]string{"a.yaml": strings.Join([]string{
			installation("a", "  context: 5\n"),
			installation("b", "  imports:\n    data: {x: 1}\n"),
			lsAPI + "kind: Execution\nmetadata: {name: e}\nspec:\n  deployItems: [{name: a, dependsOn: b}]\n",
			lsAPI + "kind: Execution\nmetadata: {name: f}\nspec:\n  deployItems: [{name: a, timeout: 5 minutes}]\n",
			"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: not base64!}\n",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: [x]}\n",
			lsAPI + "kind: DeployItem\nmetadata: {name: d}\nspec: {type: t, updateOnChangeOnly: maybe}\n",
			lsAPI + "kind: DeployItem\nmetadata: {name: d}\nstatus: {observedGeneration: 1.5}\n",
			lsAPI + "kind: Execution\nmetadata: {name: g}\nspec: {deployItemsCompressed: 5}\n",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: {a: 1}}\n",
		}, "---\n")},
		want: []string{
			`a.yaml: document 1: Installation "a": spec.context: got a number, want a string`,
			`a.yaml: document 2: Installation "b": spec.imports.data: got a mapping, want a list`,
			`a.yaml: document 3: Execution "e": spec.deployItems.dependsOn: got a string, want a list`,
			`a.yaml: document 4: Execution "f": cannot decode: unable to parse string into a duration: ` +
				`time: unknown unit " minutes" in duration "5 minutes"`,
			`a.yaml: document 5: Secret "s": a value that must be base64 is not (illegal base64 data at input byte 3): ` +
				`in a Secret, put plain text into stringData instead of data`,
			`a.yaml: document 6: ConfigMap "c": metadata.labels: got a list, want a mapping`,
			`a.yaml: document 7: DeployItem "d": spec.updateOnChangeOnly: got a string, want a boolean`,
			`a.yaml: document 8: DeployItem "d": status.observedGeneration: got a number 1.5, want an integer`,
			`a.yaml: document 9: Execution "g": spec.deployItemsCompressed: got a number, want a base64 string`,
			`a.yaml: document 10: ConfigMap "c": metadata.labels: got a number, want a string`,
		},
	}, {
		name: "names",
		files: map[string]string{"a.yaml": strings.Join([]string{
			lsAPI + "kind: DataObject\nmetadata: {generateName: do-}\n",
			lsAPI + "kind: DataObject\nmetadata: {labels: {a: b}}\n",
			lsAPI + "kind: DataObject\nmetadata: {name: My_Data, namespace: Bad.NS}\n",
			installation("dotted.name", ""),
			installation(strings.Repeat("x", 59), ""),
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {'a b': x}\n  annotations: {'/': x}\n",
			dataObject("yes"),
		}, "---\n")},
		want: []string{
			`a.yaml: document 1: DataObject: metadata.generateName "do-" is not allowed in a landscape file ` +
				`(every apply would create another object): set metadata.name`,
			`a.yaml: document 2: DataObject: metadata.name is missing`,
			`a.yaml: document 3: DataObject "My_Data": metadata.name: Invalid value: "My_Data": a lowercase RFC 1123 subdomain must consist of ` +
				`lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character ` +
				`(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`a.yaml: document 3: DataObject "My_Data": metadata.namespace: Invalid value: "Bad.NS": a lowercase RFC 1123 label must consist of ` +
				`lower case alphanumeric characters or '-', and must start and end with an alphanumeric character ` +
				`(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`a.yaml: document 4: Installation "dotted.name": metadata.name: Invalid value: "dotted.name": must not contain dots`,
			`a.yaml: document 5: Installation "` + strings.Repeat("x", 59) + `": metadata.name: Invalid value: "` + strings.Repeat("x", 59) +
				`": must be no more than 58 characters (Landscaper writes "Inst." + name into label values, which have at most 63 characters)`,
			`a.yaml: document 6: ConfigMap "c": metadata.labels: Invalid value: "a b": name part must consist of alphanumeric ` +
				`characters, '-', '_' or '.', and must start and end with an alphanumeric character ` +
				`(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`a.yaml: document 6: ConfigMap "c": metadata.annotations: Invalid value: "/": prefix part must be non-empty`,
			`a.yaml: document 6: ConfigMap "c": metadata.annotations: Invalid value: "/": name part must be non-empty`,
			`a.yaml: document 6: ConfigMap "c": metadata.annotations: Invalid value: "/": name part must consist of alphanumeric ` +
				`characters, '-', '_' or '.', and must start and end with an alphanumeric character ` +
				`(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`a.yaml: document 7: DataObject: metadata.name: got a boolean, want a string ` +
				`(YAML reads y, n, yes, no, on, off, true and false as booleans: quote the value)`,
		},
	}, {
		name: "duplicates across files",
		files: map[string]string{
			"a.yaml": dataObject("x") + "---\n" + dataObject("w"),
			"b.yaml": dataObject("z") + "---\n" + dataObject("w") + "---\n" + obj(lsGV, "DataObject", "x") +
				"  namespace: default\n" + "---\n" + obj(lsGV, "DataObject", "x") + "  namespace: other\n" +
				"---\n" + obj("v1", "ConfigMap", "x"),
		},
		want: []string{
			`b.yaml: document 2: DataObject "w": defined twice in namespace "default": first in a.yaml: document 2` + rename,
			`b.yaml: document 3: DataObject "x": defined twice in namespace "default": first in a.yaml: document 1` + rename,
		},
	}, {
		name: "every problem of a document and of every file",
		files: map[string]string{
			"a.yaml": installation("My", "  bogus: 1\n"),
			"b.yaml": "a: [\n",
		},
		want: []string{
			`a.yaml: document 1: Installation "My": unknown field "spec.bogus"`,
			`a.yaml: document 1: Installation "My": metadata.name: Invalid value: "My": a lowercase RFC 1123 label must consist of ` +
				`lower case alphanumeric characters or '-', and must start and end with an alphanumeric character ` +
				`(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			"b.yaml: document 1: invalid YAML: line 1: did not find expected node content",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			paths := tt.paths
			if paths == nil {
				paths = []string{"."}
			}
			ls, err := (&Loader{FS: mapFS(tt.files), Scheme: testScheme(t)}).Load(paths...)
			if ls != nil {
				t.Errorf("Load returned a landscape with the error")
			}
			if got := problemLines(t, err); !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
