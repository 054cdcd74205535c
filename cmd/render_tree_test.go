package cmd

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/action/dryrun"
	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// TestDecodeJSONIsYAMLUnmarshal: decodeJSON gives sigs.k8s.io/yaml's
// values for the JSON of deploy item configurations (numbers of every form,
// escapes, nesting, duplicate names), and for text that is not JSON. JSON
// the YAML parser refuses (the escape \/, which no encoder writes) is
// decoded as JSON: the configuration shows, where it showed null.
func TestDecodeJSONIsYAMLUnmarshal(t *testing.T) {
	for _, raw := range []string{
		`{"a":1,"b":-0,"c":1.5e3,"d":0.1,"e":12345678901234567890,"f":1E-7,"g":9007199254740993,"h":-9223372036854775809}`,
		`{"s":"\u2028 \" \\ \t <&> é ☃","n":null,"t":true,"l":[[],{},[1,"x",{"y":false}]]}`,
		`{"dup":1,"dup":2}`, `[]`, `"text"`, `42`, `null`, `{}`,
		"export:\n  step: a\n", "a: [1, 2]", "- x\n- y: z",
	} {
		var want any
		werr := yaml.Unmarshal([]byte(raw), &want)
		got, gerr := decodeJSON([]byte(raw))
		if (werr != nil) != (gerr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v, %v\nwant %#v, %v", raw, got, gerr, want, werr)
		}
	}
	if got, err := decodeJSON([]byte(`{"url":"a\/b"}`)); err != nil || !reflect.DeepEqual(got, map[string]any{"url": "a/b"}) {
		t.Errorf(`{"url":"a\/b"}: got %#v, %v`, got, err)
	}
}

// TestRenderTreeJoinsRootsInOrder: the roots' trees, drawn on all cores,
// come in the roots' order, each as renderTree draws it alone.
func TestRenderTreeJoinsRootsInOrder(t *testing.T) {
	var roots []*dryrun.Installation
	for i := range 50 {
		obj := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("root-%02d", i)}}
		roots = append(roots, &dryrun.Installation{Path: obj.Name, Object: obj, Blueprint: "inline",
			Imports: &dataflow.Imports{Values: map[string]any{"in": map[string]any{"n": i, "s": "a\tb"}}},
			DeployItems: []dryrun.DeployItem{{DeployItemTemplate: lsv1alpha1.DeployItemTemplate{Name: "item", Type: "landscaper.gardener.cloud/mock",
				Configuration: &runtime.RawExtension{Raw: []byte(fmt.Sprintf(`{"export":{"i":%d}}`, i))}}, Exports: map[string]any{"i": i}, ExportsFrom: "mock config"}}})
	}
	got := renderTree(roots, output.Styles{})
	var want []string
	for _, r := range roots {
		want = append(want, strings.TrimSuffix(renderTree([]*dryrun.Installation{r}, output.Styles{}), "\n"))
	}
	if got != strings.Join(want, "\n\n")+"\n" {
		t.Errorf("the trees of all roots are not the trees of each root, in order:\n%s", got)
	}
}
