package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/fakecluster"
)

func TestListGolden(t *testing.T) {
	for _, format := range []string{FormatJSON, FormatYAML} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			if err := List(landscape(), format, &out); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "list-"+format, out.String())
		})
	}
}

// listed is the part of a List the tests look at.
type listed struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Items      []struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   metav1.ObjectMeta `json:"metadata"`
		Spec       map[string]any    `json:"spec"`
	} `json:"items"`
}

func TestListShape(t *testing.T) {
	for _, format := range []string{FormatJSON, FormatYAML} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			if err := List(landscape(), format, &out); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out.String(), "deployItemsCompressed") {
				t.Errorf("List shows deployItemsCompressed")
			}
			var l listed
			if err := yaml.Unmarshal(out.Bytes(), &l); err != nil { // YAML is a superset of JSON
				t.Fatal(err)
			}
			if l.APIVersion != "v1" || l.Kind != "List" {
				t.Errorf("list is %s %s, want v1 List", l.APIVersion, l.Kind)
			}
			var order []string
			for _, it := range l.Items {
				order = append(order, it.Kind+" "+it.Metadata.Namespace+"/"+it.Metadata.Name)
				wantVersion := "landscaper.gardener.cloud/v1alpha1"
				if it.Kind == "Secret" || it.Kind == "ConfigMap" {
					wantVersion = "v1"
				}
				if it.APIVersion != wantVersion {
					t.Errorf("%s has apiVersion %q, want %q", it.Kind, it.APIVersion, wantVersion)
				}
				if it.Kind == "Execution" && it.Metadata.Name == "demo" {
					items, _ := it.Spec["deployItems"].([]any)
					if len(items) != 2 || items[0].(map[string]any)["name"] != "chart" {
						t.Errorf("Execution example/demo spec.deployItems = %v, want the 2 items in clear", it.Spec["deployItems"])
					}
				}
			}
			want := []string{
				"Installation example/broken", "Installation example/dangling", "Installation example/demo",
				"Installation example/demo-app-q9w8e", "Installation example/demo-db-x7k2p", "Installation other/upgrade",
				"Execution example/broken", "Execution example/demo", "Execution example/demo-db-x7k2p",
				"Execution example/lost", "Execution other/upgrade",
				"DeployItem example/broken-item-zz9x8", "DeployItem example/demo-chart-a1b2c",
				"DeployItem example/demo-config-d4e5f", "DeployItem example/demo-db-x7k2p-db-8fj2k",
				"DeployItem example/stray-k1l2m", "DeployItem other/upgrade-new-p5q6r", "DeployItem other/upgrade-old-m3n4b",
				"Target example/my-cluster", "DataObject example/dataobj-demo-db-url", "Context example/default",
				"Secret example/credentials", "ConfigMap example/settings",
			}
			if strings.Join(order, "\n") != strings.Join(want, "\n") {
				t.Errorf("items in order\n%s\nwant\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestListCompressedExecution checks an Execution that holds its deploy
// items only in compressed form, as one decoded from an old state would.
func TestListCompressedExecution(t *testing.T) {
	exec := &lsv1alpha1.Execution{ObjectMeta: meta("ns", "e")}
	exec.Spec.DeployItems = lsv1alpha1.DeployItemTemplateList{{Name: "a", Type: "mock"}}
	compressed, err := json.Marshal(exec.Spec) // ExecutionSpec.MarshalJSON gzips
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		DeployItemsCompressed []byte `json:"deployItemsCompressed"`
	}
	if err := json.Unmarshal(compressed, &raw); err != nil || len(raw.DeployItemsCompressed) == 0 {
		t.Fatalf("fixture: spec not compressed: %s (%v)", compressed, err)
	}
	exec.Spec = lsv1alpha1.ExecutionSpec{DeployItemsCompressed: raw.DeployItemsCompressed}

	var out bytes.Buffer
	if err := List([]fakecluster.Object{exec}, FormatJSON, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "deployItemsCompressed") || !strings.Contains(out.String(), `"name": "a"`) {
		t.Errorf("List did not show the deploy items in clear:\n%s", out.String())
	}
}

func TestListEmpty(t *testing.T) {
	tests := []struct{ format, want string }{
		{FormatJSON, "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"items\": []\n}\n"},
		{FormatYAML, "apiVersion: v1\nitems: []\nkind: List\n"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var out bytes.Buffer
			if err := List(nil, tt.format, &out); err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("List(nil) =\n%q\nwant\n%q", out.String(), tt.want)
			}
		})
	}
}

func TestListKeepsTypeMetaAndInput(t *testing.T) {
	objs := landscape()
	custom := &lsv1alpha1.Target{ObjectMeta: meta("ns", "t")}
	custom.APIVersion, custom.Kind = "landscaper.gardener.cloud/v1alpha1", "Target"
	objs = append(objs, custom)
	var out bytes.Buffer
	if err := List(objs, FormatJSON, &out); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs[:len(objs)-1] {
		if gvk := o.GetObjectKind().GroupVersionKind(); !gvk.Empty() {
			t.Errorf("List set TypeMeta %v on its input %s", gvk, o.GetName())
		}
	}
}

// unregistered is a kind that neither the Landscaper nor the core/v1 API has.
type unregistered struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

func (u *unregistered) DeepCopyObject() runtime.Object { c := *u; return &c }

func TestListErrors(t *testing.T) {
	withTypeMeta := &unregistered{ObjectMeta: meta("ns", "typed")}
	withTypeMeta.APIVersion, withTypeMeta.Kind = "example.com/v1", "Widget"
	tests := []struct {
		name    string
		objs    []fakecluster.Object
		format  string
		wantErr string
	}{
		{name: "unknown format", format: "xml", wantErr: `unknown output format "xml" (allowed: json, yaml)`},
		{name: "table is not a List format", format: "wide", wantErr: `unknown output format "wide" (allowed: json, yaml)`},
		{
			name: "unknown type without TypeMeta", format: FormatJSON,
			objs:    []fakecluster.Object{&unregistered{ObjectMeta: meta("ns", "w")}},
			wantErr: "encode unregistered ns/w: set apiVersion and kind (set TypeMeta for types outside the Landscaper and core/v1 APIs): ",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := List(tt.objs, tt.format, &out)
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Fatalf("List error = %v, want prefix %q", err, tt.wantErr)
			}
			if out.Len() != 0 {
				t.Errorf("List wrote output despite the error: %q", out.String())
			}
		})
	}
	t.Run("unknown type with TypeMeta", func(t *testing.T) {
		var out bytes.Buffer
		if err := List([]fakecluster.Object{withTypeMeta}, FormatYAML, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "kind: Widget") {
			t.Errorf("List lost the TypeMeta:\n%s", out.String())
		}
	})
}
