package dataflow

import (
	"reflect"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestCachedValuesAreToGenerics: the cached conversions give what
// toGeneric gives, and a template that changes what it got changes
// nobody else's value.
func TestCachedValuesAreToGenerics(t *testing.T) {
	inline := lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{
		Filesystem: lsv1alpha1.NewAnyJSON([]byte(`{"blueprint.yaml": "kind: Blueprint\n", "n": [1, 2.5]}`))}}
	ref := lsv1alpha1.BlueprintDefinition{Reference: &lsv1alpha1.RemoteBlueprintReference{ResourceName: "bp"}}
	for _, def := range []lsv1alpha1.BlueprintDefinition{inline, ref, {}} {
		want, err := toGeneric[any](def)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // the second time from the cache
			got, err := blueprintValue(def)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v: %#v, want %#v", def, got, want)
			}
			if m, ok := got.(map[string]any); ok {
				m["changed"] = true // as sprig's set would
			}
		}
	}
}
