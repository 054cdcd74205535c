package helm

import (
	"strings"
	"testing"

	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// renderChart is a chart with a subchart that the value sub.enabled turns
// on, and a template file that is YAML but no Kubernetes object.
func renderChart() *chart.Chart {
	sub := &chart.Chart{
		Metadata: &chart.Metadata{APIVersion: "v2", Name: "sub", Version: "0.1.0"},
		Templates: []*chart.File{{Name: "templates/cm.yaml",
			Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: sub}\n")}},
	}
	parent := &chart.Chart{
		Metadata: &chart.Metadata{APIVersion: "v2", Name: "parent", Version: "0.1.0",
			Dependencies: []*chart.Dependency{{Name: "sub", Version: "0.1.0", Condition: "sub.enabled"}}},
		Templates: []*chart.File{
			{Name: "templates/cm.yaml", Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: parent}\n")},
			{Name: "templates/note.txt", Data: []byte("1. this is just some test:\n  I'm a valid yaml")},
			{Name: "templates/mixed.yaml", Data: []byte("just text\n---\n[1, 2]\n---\nkey: [unclosed\n---\n" +
				"apiVersion: v1\nkind: Secret\nmetadata: {name: mixed}\n---\nnot: an object\n")},
			{Name: "templates/json.json", Data: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j1"}}` +
				`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j2"}}{"broken"`)},
		},
		Values: map[string]any{"sub": map[string]any{"enabled": true}},
	}
	parent.AddDependency(sub)
	return parent
}

// renderedNames renders renderChart with values as the template step does,
// turns the files into manifests and returns "Kind name" of every manifest.
func renderedNames(t *testing.T, values map[string]any) []string {
	t.Helper()
	ch := renderChart()
	opts := chartutil.ReleaseOptions{Name: "r", Namespace: "ns", IsInstall: true}
	render, err := chartutil.ToRenderValuesWithSchemaValidation(ch, values, opts, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	files, err := engine.Render(ch, render)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := renderManifests(&helmv1alpha1.ProviderConfiguration{Name: "r", Namespace: "ns"},
		&templated{chart: ch, values: values, render: render, files: files})
	if err != nil {
		t.Fatalf("renderManifests: %v", err)
	}
	return manifestNames(t, ms)
}

// manifestNames lists "Kind name" of every manifest.
func manifestNames(t *testing.T, ms []managedresource.Manifest) []string {
	t.Helper()
	var out []string
	for _, m := range ms {
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(m.Manifest.Raw); err != nil {
			t.Fatal(err)
		}
		out = append(out, u.GetKind()+" "+u.GetName())
	}
	return out
}

// TestRenderManifestsSkipsNonObjects: as Landscaper's
// DecodeObjectsToRawExtension, a rendered document that cannot be decoded or
// has no apiVersion and kind is left out; the file's other objects stay.
func TestRenderManifestsSkipsNonObjects(t *testing.T) {
	got := strings.Join(renderedNames(t, map[string]any{}), ", ")
	want := "ConfigMap sub, ConfigMap parent, ConfigMap j1, ConfigMap j2, Secret mixed"
	if got != want {
		t.Errorf("rendered %s, want %s", got, want)
	}
}

// TestRenderManifestsKeepsDisabledSubcharts: Landscaper's template step
// renders every subchart (it never processes the dependencies' conditions or
// tags), so a disabled subchart is applied too.
func TestRenderManifestsKeepsDisabledSubcharts(t *testing.T) {
	got := strings.Join(renderedNames(t, map[string]any{"sub": map[string]any{"enabled": false}}), ", ")
	if !strings.Contains(got, "ConfigMap sub") {
		t.Errorf("rendered %s, want the disabled subchart's ConfigMap sub too", got)
	}
}
