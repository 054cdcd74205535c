package dataflow

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
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

// TestCompiledSchemasAreShared: a schema without references is compiled
// once, and validating with it from many goroutines at once gives each its
// own answer (go test -race checks that nothing is written).
func TestCompiledSchemasAreShared(t *testing.T) {
	s := &schemas{}
	schema := []byte(`{"type": "object", "properties": {"n": {"type": "integer", "minimum": 2}}, "required": ["n"]}`)
	first, err := s.compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := s.compile(schema); again != first {
		t.Error("the schema was compiled again")
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { errs[i] = s.validate(schema, map[string]any{"n": float64(i)}) })
	}
	wg.Wait()
	for i, err := range errs {
		if (err == nil) != (i >= 2) {
			t.Errorf("n=%d: %v", i, err)
		}
	}
}

// TestDecodeRawKeepsCopies: decoding a short text again gives the value of
// the first decoding, as a copy a template may change; long texts and
// texts that do not decode give what decoding gives.
func TestDecodeRawKeepsCopies(t *testing.T) {
	long := `{"s":"` + strings.Repeat("x", maxKeptRaw) + `","a":[1]}`
	for _, text := range []string{`{"a":[1,2.5,{"b":null}],"c":"<&>"}`, `"s"`, `3`, long, `{"bad"`} {
		var want any
		wantErr := json.Unmarshal([]byte(text), &want)
		for range 3 {
			got, err := decodeRaw([]byte(text))
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("%.40s: error %v, want %v", text, err, wantErr)
			}
			if err == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("%.40s: %#v, want %#v", text, got, want)
			}
			if m, ok := got.(map[string]any); ok {
				m["changed"] = true
				m["a"].([]any)[0] = "changed"
			}
		}
	}
}
