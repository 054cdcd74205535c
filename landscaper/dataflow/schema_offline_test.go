package dataflow

import (
	"errors"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/lscli/lscli/internal/nonet"
)

// TestOfflineLoader: a reference the validator itself would load (made
// remote by an "$id", so that resolve does not see it) is refused, without
// a network attempt.
func TestOfflineLoader(t *testing.T) {
	nonet.Forbid(t)
	doc := map[string]any{"$id": "https://schemas.example.invalid/a.json",
		"properties": map[string]any{"x": map[string]any{"$ref": "b.json"}}}
	_, err := gojsonschema.NewSchemaLoader().Compile(offlineLoader{gojsonschema.NewGoLoader(doc)})
	if !errors.Is(err, errRefused) {
		t.Fatalf("err = %v, want a refused $ref", err)
	}
}
