package template

import (
	"encoding/json"
	"reflect"
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/components/descriptor"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

// The cases of Landscaper's template tests (pkg/landscaper/installations/
// executions/template: template_test.go and gotemplate_test.go with their
// testdata), each for GoTemplate, Spiff with a YAML template and Spiff with
// a template string, rendered by lscli and checked against what those
// tests expect.

// engineTemplates is one case's template for each engine; "" skips one.
type engineTemplates struct{ goTmpl, spiff string }

// executions returns the case's executions: GoTemplate, Spiff YAML, Spiff text.
func (e engineTemplates) executions(t *testing.T) map[string]lsv1alpha1.TemplateExecutor {
	t.Helper()
	out := map[string]lsv1alpha1.TemplateExecutor{}
	if e.goTmpl != "" {
		out["GoTemplate"] = goExec(e.goTmpl)
	}
	if e.spiff != "" {
		out["Spiff YAML"] = spiffYAML(t, e.spiff)
		raw, _ := json.Marshal(e.spiff)
		out["Spiff text"] = lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType, Template: lsv1alpha1.NewAnyJSON(raw)}
	}
	return out
}

// at returns the value at path (keys and list indexes) of v.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// refComponents returns a root component with two image resources of class
// image and a reference to a component with an ubuntu image, in schema.
func refComponents(t *testing.T, schema string) (*funcs.Components, map[string]any) {
	t.Helper()
	def := &lsv1alpha1.ComponentDescriptorDefinition{}
	err := yaml.Unmarshal([]byte(`
inline:
  meta: {schemaVersion: v2}
  component:
    name: example.com/mycomp
    version: 1.0.0
    provider: internal
    repositoryContexts: []
    sources: []
    resources:
    - {name: mycustomimage, version: 1.0.0, type: ociImage, extraIdentity: {class: image}, relation: external, access: {type: ociRegistry, imageReference: "quay.io/example/myimage:1.0.0"}}
    - {name: yourcustomimage, version: 1.0.0, type: ociImage, extraIdentity: {class: image}, relation: external, access: {type: ociRegistry, imageReference: "quay.io/example/yourimage:1.0.0"}}
    componentReferences:
    - name: my-referenced-component
      componentName: example.com/myrefcomp
      version: 1.0.0
      labels:
      - name: landscaper.gardener.cloud/component-descriptor
        value:
          meta: {schemaVersion: v2}
          component:
            name: example.com/myrefcomp
            version: 1.0.0
            provider: internal
            repositoryContexts: []
            sources: []
            componentReferences: []
            resources:
            - {name: ubuntu, version: 1.0.0, type: ociImage, relation: external, access: {type: ociRegistry, imageReference: "quay.io/example/ubuntu:1.0.0"}}
`), def)
	if err != nil {
		t.Fatal(err)
	}
	c, err := funcs.NewComponents(def)
	if err != nil {
		t.Fatal(err)
	}
	c.Schema = schema
	cd, list, err := c.Bindings()
	if err != nil {
		t.Fatal(err)
	}
	return c, map[string]any{"cd": cd, "components": list}
}

func TestLandscaperTemplateCases(t *testing.T) {
	files := fstest.MapFS{"VERSION": {Data: []byte("0.0.0")}}
	type tcase struct {
		name     string
		tmpl     engineTemplates
		values   map[string]any
		schema   string // component schema; "" means no components
		stateful bool
		state    []byte
		// want maps a path (as fmt %v of the path) to the value wanted there.
		want map[string]any
		path map[string][]any
	}
	cases := []tcase{
		{name: "raw template", tmpl: engineTemplates{
			goTmpl: "deployItems:\n- name: init\n  type: container\n  config:\n    image: plain:version\n",
			spiff:  "deployItems:\n- name: init\n  type: container\n  config:\n    image: plain:version\n"},
			path: map[string][]any{"name": {"deployItems", 0, "name"}, "type": {"deployItems", 0, "type"}},
			want: map[string]any{"name": "init", "type": "container"}},
		{name: "imports", tmpl: engineTemplates{
			goTmpl: "image: img:{{ .imports.version }}\n",
			spiff:  "image: (( \"img:\" imports.version ))\n"},
			values: map[string]any{"imports": map[string]any{"version": "0.0.0"}},
			path:   map[string][]any{"image": {"image"}}, want: map[string]any{"image": "img:0.0.0"}},
		{name: "file content", tmpl: engineTemplates{
			goTmpl: "a: img:{{ toString (readFile \"/VERSION\") }}\nb: img:{{ toString (readFile \"./VERSION\") }}\n",
			spiff:  "a: (( \"img:\" read(\"./VERSION\", \"text\") ))\nb: (( \"img:\" read(\"/VERSION\", \"text\") ))\n"},
			path: map[string][]any{"a": {"a"}, "b": {"b"}}, want: map[string]any{"a": "img:0.0.0", "b": "img:0.0.0"}},
		{name: "export values", tmpl: engineTemplates{
			goTmpl: "exports:\n  image: img:{{ .values.version }}\n",
			spiff:  "exports:\n  image: (( \"img:\" values.version ))\n"},
			values: map[string]any{"values": map[string]any{"version": "0.0.0"}},
			path:   map[string][]any{"image": {"exports", "image"}}, want: map[string]any{"image": "img:0.0.0"}},
		{name: "state", stateful: true, state: []byte(`{"version":"0.0.2"}`), tmpl: engineTemplates{
			goTmpl: "{{ $v := dig \"version\" \"0.0.1\" .state }}\nstate:\n  version: {{ $v }}\nimage: img:{{ $v }}\n"},
			path: map[string][]any{"image": {"image"}}, want: map[string]any{"image": "img:0.0.2"}},
		{name: "spiff state", stateful: true, state: []byte("state:\n  version: 0.0.2\n"), tmpl: engineTemplates{
			spiff: "state:\n  <<<: (( &state ))\n  version: 0.0.1\nimage: (( \"img:\" .state.version ))\n"},
			path: map[string][]any{"image": {"image"}}, want: map[string]any{"image": "img:0.0.2"}},
		{name: "blueprint and componentDescriptorDef", tmpl: engineTemplates{
			goTmpl: "blueprint:\n{{ toYaml .blueprint | indent 2 }}\ncd:\n{{ toYaml .componentDescriptorDef | indent 2 }}\n",
			spiff:  "blueprint: (( __ctx.OUTER[0].blueprint ))\ncd: (( __ctx.OUTER[0].componentDescriptorDef ))\n"},
			values: map[string]any{"blueprint": map[string]any{"ref": map[string]any{"resourceName": "my-res"}},
				"componentDescriptorDef": map[string]any{"ref": map[string]any{"componentName": "my-comp", "version": "0.1.0"}}},
			path: map[string][]any{"bp": {"blueprint", "ref", "resourceName"}, "cd": {"cd", "ref", "componentName"}},
			want: map[string]any{"bp": "my-res", "cd": "my-comp"}},
		{name: "oci references", tmpl: engineTemplates{
			goTmpl: "{{ $i := parseOCIRef .imports.ref1 }}i0: \"{{ index $i 0 }}:{{ index $i 1 }}\"\ni1: \"{{ ociRefRepo .imports.ref1 }}:{{ ociRefVersion .imports.ref1 }}\"\ni2: \"{{ ociRefRepo .imports.ref2 }}@{{ ociRefVersion .imports.ref2 }}\"\n",
			spiff:  "tmp: (( &temporary(parseOCIRef(imports.ref1)) ))\ni0: (( tmp[0] \":\" tmp[1] ))\ni1: (( ociRefRepo(imports.ref1) \":\" ociRefVersion(imports.ref1) ))\ni2: (( ociRefRepo(imports.ref2) \"@\" ociRefVersion(imports.ref2) ))\n"},
			values: map[string]any{"imports": map[string]any{"ref1": "myimage:0.0.0",
				"ref2": "myimage@sha256:66371f17cc61bbbed2667b0285a10981deba5eb969df9bfd4cf273706044ddcb"}},
			path: map[string][]any{"i0": {"i0"}, "i1": {"i1"}, "i2": {"i2"}},
			want: map[string]any{"i0": "myimage:0.0.0", "i1": "myimage:0.0.0",
				"i2": "myimage@sha256:66371f17cc61bbbed2667b0285a10981deba5eb969df9bfd4cf273706044ddcb"}},
		{name: "subinstallation", tmpl: engineTemplates{
			goTmpl: "subinstallations:\n- name: sub\n  blueprint:\n    ref: cd://resources/{{ .imports.blueprintName }}\n",
			spiff:  "subinstallations:\n- name: sub\n  blueprint:\n    ref: (( \"cd://resources/\" imports.blueprintName ))\n"},
			values: map[string]any{"imports": map[string]any{"blueprintName": "some-blueprint-name"}},
			path:   map[string][]any{"ref": {"subinstallations", 0, "blueprint", "ref"}}, want: map[string]any{"ref": "cd://resources/some-blueprint-name"}},
	}
	for _, schema := range []string{descriptor.SchemaV2, descriptor.SchemaV3} {
		cases = append(cases,
			tcase{name: "resources " + schema, schema: schema, tmpl: engineTemplates{
				goTmpl: "{{ $r := getResource .cd \"name\" \"mycustomimage\" }}image: {{ $r.access.imageReference }}\nimages:\n{{- range getResources .cd \"class\" \"image\" }}\n- {{ .access.imageReference }}\n{{- end }}\n",
				spiff:  "temp:\n  r: (( &temporary(getResource(cd, \"name\", \"mycustomimage\")) ))\nimage: (( temp.r.access.imageReference ))\n"},
				path: map[string][]any{"image": {"image"}}, want: map[string]any{"image": "quay.io/example/myimage:1.0.0"}},
			tcase{name: "referenced component " + schema, schema: schema, tmpl: engineTemplates{
				goTmpl: "{{ $c := getComponent .cd \"name\" \"my-referenced-component\" }}{{ $r := getResource $c \"name\" \"ubuntu\" }}image: {{ $r.access.imageReference }}\n",
				spiff:  "temp:\n  c: (( &temporary(getComponent(cd, \"name\", \"my-referenced-component\")) ))\n  r: (( &temporary(getResource(c, \"name\", \"ubuntu\")) ))\nimage: (( temp.r.access.imageReference ))\n"},
				path: map[string][]any{"image": {"image"}}, want: map[string]any{"image": "quay.io/example/ubuntu:1.0.0"}},
		)
	}
	cases = append(cases,
		tcase{name: "components v2", schema: descriptor.SchemaV2, tmpl: engineTemplates{
			goTmpl: "name: {{ .cd.component.name }}\nnames:\n{{- range .components.components }}\n- {{ .component.name }}\n{{- end }}\n",
			spiff:  "name: (( cd.component.name ))\nnames: (( map[components.components|c|->c.component.name] ))\n"},
			path: map[string][]any{"name": {"name"}, "names": {"names"}},
			want: map[string]any{"name": "example.com/mycomp", "names": []any{"example.com/mycomp", "example.com/myrefcomp"}}},
		tcase{name: "components v3alpha1", schema: descriptor.SchemaV3, tmpl: engineTemplates{
			goTmpl: "name: {{ .cd.metadata.name }}\nnames:\n{{- range .components }}\n- {{ .metadata.name }}\n{{- end }}\n",
			spiff:  "name: (( cd.metadata.name ))\nnames: (( map[components|c|->c.metadata.name] ))\n"},
			path: map[string][]any{"name": {"name"}, "names": {"names"}},
			want: map[string]any{"name": "example.com/mycomp", "names": []any{"example.com/mycomp", "example.com/myrefcomp"}}},
	)
	for _, tc := range cases {
		for engine, ex := range tc.tmpl.executions(t) {
			t.Run(tc.name+"/"+engine, func(t *testing.T) {
				values := map[string]any{}
				for k, v := range tc.values {
					values[k] = v
				}
				e := &Executor{FS: files}
				if tc.schema != "" {
					c, bindings := refComponents(t, tc.schema)
					e.Components = c
					for k, v := range bindings {
						values[k] = v
					}
				}
				res, err := e.Execute(Request{Execution: ex, Values: values, Stateful: tc.stateful, State: tc.state, CheckNoValue: true})
				if err != nil {
					t.Fatal(err)
				}
				var out any
				if err := yaml.Unmarshal(res.Output, &out); err != nil {
					t.Fatalf("output does not decode: %v\n%s", err, res.Output)
				}
				for key, path := range tc.path {
					if got := at(out, path...); !reflect.DeepEqual(got, tc.want[key]) {
						t.Errorf("%v = %#v, want %#v\noutput:\n%s", path, got, tc.want[key], res.Output)
					}
				}
			})
		}
	}
}

// TestLandscaperTemplateErrorCases: the cases where Landscaper's tests
// expect an error.
func TestLandscaperTemplateErrorCases(t *testing.T) {
	values := map[string]any{"imports": map[string]any{"version": "0.0.0"}}
	for name, tmpl := range map[string]engineTemplates{
		"undefined value": {goTmpl: "image: img:{{ .nonexisting.value }}\n", spiff: "image: (( \"img:\" imports.version.nonexisting ))\n"},
		"parse error":     {goTmpl: "a:\n  min: {{ .imports.version }\n"},
		"no value":        {goTmpl: "a: {{ .imports.nope }}\n"},
	} {
		for engine, ex := range tmpl.executions(t) {
			_, err := (&Executor{}).Execute(Request{Execution: ex, Values: values, CheckNoValue: true})
			if err == nil {
				t.Errorf("%s/%s: no error", name, engine)
			}
		}
	}
}

// TestLandscaperGoTemplateExecution: the cases of Landscaper's
// gotemplate_test.go (a binding, include, include in a pipe, fromYaml) and
// the GoTemplate getResourceKey and getResourceContent cases of its
// template_test.go (template-32 to 35: a relative reference in YAML and a
// cd:// path name the same resource).
func TestLandscaperGoTemplateExecution(t *testing.T) {
	files := fstest.MapFS{"template.include": {Data: []byte("value: {{ .values.test }}\nconst: bar")}}
	values := map[string]any{"values": map[string]any{"test": "foo", "yamlString": "foo: bar"}}
	c := leafComponents(t, blobContents{"config": {"some: config", "application/yaml"}})
	for text, want := range map[string]string{
		"{{ .values.test }}":                                       "foo",
		`{{ include "template.include" . }}`:                       "value: foo\nconst: bar",
		"config:\n{{ include \"template.include\" . | indent 2 }}": "config:\n  value: foo\n  const: bar",
		`{{ $y := fromYaml .values.yamlString }}{{ $y.foo }}`:      "bar",
		"{{ getResourceKey `\nresource:\n  name: chart\nreferencePath:\n  - name: leaf\n` | eq (getResourceKey `cd://componentReferences/leaf/resources/chart`) }}":          "true",
		"{{ getResourceContent `\nresource:\n  name: config\nreferencePath:\n  - name: leaf\n` }}|{{ getResourceContent `cd://componentReferences/leaf/resources/config` }}": "some: config|some: config",
	} {
		res, err := (&Executor{FS: files, Components: c}).Execute(Request{Execution: goExec(text), Values: values})
		if err != nil || string(res.Output) != want {
			t.Errorf("%s: %q, %v; want %q", text, res.Output, err, want)
		}
	}
}
