package template

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/template/funcs"
)

// rootWithLeaf is a component whose reference "leaf" leads to a component,
// given inline, with a chart and a config resource.
const rootWithLeaf = `
inline:
  meta: {schemaVersion: v2}
  component:
    name: example.com/root
    version: 1.0.0
    provider: internal
    repositoryContexts: []
    sources: []
    resources:
    - {name: image, type: ociImage, version: 1.0.0, relation: external, access: {type: ociRegistry, imageReference: r.example.com/img:1.0.0}}
    componentReferences:
    - name: leaf
      componentName: example.com/leaf
      version: 2.0.0
      labels:
      - name: landscaper.gardener.cloud/component-descriptor
        value:
          meta: {schemaVersion: v2}
          component:
            name: example.com/leaf
            version: 2.0.0
            provider: internal
            repositoryContexts: []
            sources: []
            componentReferences: []
            resources:
            - {name: chart, type: helmChart, version: 2.0.0, relation: local, access: {type: localBlob, localReference: chart}}
            - {name: config, type: blob, version: 2.0.0, relation: local, access: {type: localBlob, localReference: config}}
`

// blobContents serves each resource's content and media type by name.
type blobContents map[string][2]string

func (b blobContents) ResourceContent(_ *cdv2.ComponentDescriptor, res cdv2.Resource) ([]byte, string, error) {
	c, ok := b[res.Name]
	if !ok {
		return nil, "", errors.New("no content")
	}
	return []byte(c[0]), c[1], nil
}

// leafComponents returns the components of rootWithLeaf with contents.
func leafComponents(t *testing.T, contents blobContents) *funcs.Components {
	t.Helper()
	def := &lsv1alpha1.ComponentDescriptorDefinition{}
	if err := yaml.Unmarshal([]byte(rootWithLeaf), def); err != nil {
		t.Fatal(err)
	}
	c, err := funcs.NewComponents(def)
	if err != nil {
		t.Fatal(err)
	}
	c.Contents = contents
	return c
}

// spiffYAML is a Spiff execution of a YAML template.
func spiffYAML(t *testing.T, text string) lsv1alpha1.TemplateExecutor {
	t.Helper()
	raw, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return lsv1alpha1.TemplateExecutor{Name: "s", Type: lsv1alpha1.SpiffTemplateType, Template: lsv1alpha1.NewAnyJSON(raw)}
}

// TestSpiffResourceReferenceObject: Landscaper's Spiff getResourceKey and
// getResourceContent take the relative resource reference as a string or
// as an object, which they read as its JSON (spiffGetResourceKey,
// spiffGetResourceContent; Landscaper's template-32/33 of testdata/spifftemplate).
func TestSpiffResourceReferenceObject(t *testing.T) {
	c := leafComponents(t, blobContents{"config": {"a: 1\n", "application/yaml"}})
	key, err := c.ResourceKey("cd://componentReferences/leaf/resources/chart")
	if err != nil {
		t.Fatal(err)
	}
	text := `
helper:
  <<<: (( &temporary ))
  ref:
    resource: {name: chart}
    referencePath: [{name: leaf}]
  cfg:
    resource: {name: config}
    referencePath: [{name: leaf}]
key: (( getResourceKey(helper.ref) ))
content: (( getResourceContent(helper.cfg) ))
`
	res, err := (&Executor{Components: c}).Execute(Request{Execution: spiffYAML(t, text)})
	if err != nil {
		t.Fatal(err)
	}
	want := "content:\n  a: 1\nkey: " + key + "\n"
	if string(res.Output) != want {
		t.Errorf("output\n%s\nwant\n%s", res.Output, want)
	}
}

// TestSpiffResourceContentOctetStream: Landscaper's Spiff getResourceContent
// base64-encodes content of media type application/octet-stream before it
// reads it as YAML, as its GoTemplate function does: a string, not the raw
// bytes.
func TestSpiffResourceContentOctetStream(t *testing.T) {
	c := leafComponents(t, blobContents{"config": {"\xff\x00 a: [", "application/octet-stream"}})
	text := `content: (( getResourceContent("cd://componentReferences/leaf/resources/config") ))`
	res, err := (&Executor{Components: c}).Execute(Request{Execution: spiffYAML(t, text)})
	if err != nil {
		t.Fatal(err)
	}
	want := "content: " + base64.StdEncoding.EncodeToString([]byte("\xff\x00 a: [")) + "\n"
	if string(res.Output) != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
	if !strings.HasPrefix(want, "content: /w") {
		t.Fatalf("test data: %q", want)
	}
}

// TestGoComponentFunctionsNeedTheInstallationsComponent: Landscaper's
// GoTemplate getResource, getResources and getComponent fail when the
// installation has no component descriptor, also when the template passes
// one as the first argument (getResourceGoFunc, getResourcesGoFunc and
// getComponentGoFunc check theirs first). Spiff's getResource does not
// check, and works with a component descriptor argument.
func TestGoComponentFunctionsNeedTheInstallationsComponent(t *testing.T) {
	c := leafComponents(t, nil)
	cd, _, err := c.Bindings()
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]any{"other": cd}
	for _, text := range []string{
		`x: {{ (getResource .other "name" "image").name }}`,
		`x: {{ len (getResources .other "name" "image") }}`,
		`x: {{ (getComponent .other "name" "leaf").component.name }}`,
	} {
		_, err := (&Executor{}).Execute(Request{Execution: goExec(text), Values: values})
		if err == nil || !strings.Contains(err.Error(), "the installation has no component descriptor") {
			t.Errorf("%s: %v, want the installation's missing component descriptor", text, err)
		}
	}
	res, err := (&Executor{}).Execute(Request{Execution: spiffYAML(t, `x: (( getResource(other, "name", "image").name ))`), Values: values})
	if err != nil || string(res.Output) != "x: image\n" {
		t.Errorf("Spiff getResource with a component argument: %q, %v", res.Output, err)
	}
}

// A resource getResource or getResources does not find: lscli's message
// names the component and the selector; Landscaper's, in the status, is the
// selector's ErrNotFound ("NotFound") that its function panics with.
func TestGoGetResourceNotFoundLandscaperMessage(t *testing.T) {
	c := leafComponents(t, nil)
	cd, _, err := c.Bindings()
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"getResource":  `x: {{ (getResource .cd "name" "alpine").name }}`,
		"getResources": `x: {{ len (getResources .cd "name" "alpine") }}`,
	} {
		_, err := (&Executor{Components: c}).Execute(Request{Execution: goExec(text), Values: map[string]any{"cd": cd}})
		var te *Error
		if !errors.As(err, &te) || te.Go == nil {
			t.Fatalf("%s: err = %v, want an *Error with Landscaper's message", name, err)
		}
		if !strings.Contains(err.Error(), "error calling "+name+": no resource of component ") {
			t.Errorf("%s: err = %q, want lscli's message", name, err)
		}
		if want := "error calling " + name + ": NotFound"; !strings.HasSuffix(te.Go.Message, want) {
			t.Errorf("%s: Landscaper's message = %q, want it to end in %q", name, te.Go.Message, want)
		}
	}
}

// The errors of the component functions that Landscaper's GoTemplate
// functions word otherwise (pkg/landscaper/installations/executions
// /template/gotemplate/funcs.go and helper.go): Landscaper's message has
// Landscaper's words, lscli's keeps its own.
func TestGoComponentFuncsLandscaperMessage(t *testing.T) {
	c := leafComponents(t, nil)
	cd, _, err := c.Bindings()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text string
		none       bool // without a component descriptor
		want       string
	}{
		{"getResource without cd", `{{ getResource "name" "x" }}`, true, "Unable to search for a resource as no ComponentDescriptor is defined."},
		{"getResources without cd", `{{ getResources "name" "x" }}`, true, "Unable to search for a resource as no ComponentDescriptor is defined."},
		{"getComponent without cd", `{{ getComponent "name" "x" }}`, true, "Unable to search for a component as no ComponentDescriptor is defined."},
		{"one argument", `{{ getResource "name" }}`, false, "at least 2 arguments are expected"},
		{"cd and one argument", `{{ getResource .cd }}`, false, "at least 2 arguments are expected"},
		{"odd pairs", `{{ getComponent .cd "name" }}`, false, "odd number of key value pairs"},
		{"key not a string", `{{ getResources 1 "x" }}`, false, "expect argument 0 to be a string"},
		{"value not a string", `{{ getResource .cd "name" 1 }}`, false, "expect argument 1 to be a string"},
		{"no component reference", `{{ getComponent .cd "name" "nope" }}`, false, "NotFound"},
		{"getRepositoryContext nil", `{{ getRepositoryContext .nothing }}`, false, "Unable to get effective component descriptor as no ComponentDescriptor is defined."},
		{"getRepositoryContext not a map", `{{ getRepositoryContext "x" }}`, false, "invalid component descriptor"},
		{"getResourceKey no argument", `{{ getResourceKey }}`, false, "unable to provide key for empty relative artifact reference"},
		{"getResourceKey two arguments", `{{ getResourceKey "a" "b" }}`, false, "this function requires 1 argument, but 2 were provided"},
		{"getResourceKey without cd", `{{ getResourceKey 1 }}`, true, "unable to use this function without ocm component version"},
		{"getResourceKey not a string", `{{ getResourceKey 1 }}`, false, "unable to assert the first argument as string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ex := &Executor{Components: c}
			if tc.none {
				ex.Components = nil
			}
			_, err := ex.Execute(Request{Execution: goExec("x: " + tc.text), Values: map[string]any{"cd": cd}})
			var te *Error
			if !errors.As(err, &te) || te.Go == nil {
				t.Fatalf("err = %v, want an *Error with Landscaper's message", err)
			}
			if strings.Contains(err.Error(), tc.want) {
				t.Errorf("lscli's message %q has Landscaper's words", err)
			}
			name := strings.Fields(strings.Trim(tc.text, "{} "))[0]
			if want := "error calling " + name + ": " + tc.want; !strings.HasSuffix(te.Go.Message, want) {
				t.Errorf("Landscaper's message = %q, want it to end in %q", te.Go.Message, want)
			}
		})
	}
}
