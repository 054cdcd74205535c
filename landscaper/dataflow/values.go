package dataflow

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/internal/fastjson"
)

// targetValue returns a Target as templates see it: the whole object as a
// JSON map {apiVersion, kind, metadata, spec}.
func targetValue(t *lsv1alpha1.Target) (map[string]any, error) {
	t = t.DeepCopy()
	t.APIVersion = lsv1alpha1.SchemeGroupVersion.String()
	t.Kind = "Target"
	t.ManagedFields = nil
	m, err := toGeneric[map[string]any](t)
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", t.Name, err)
	}
	return m, nil
}

// toGeneric converts v to the generic JSON type T through JSON, as
// encoding/json does (package fastjson).
func toGeneric[T any](v any) (T, error) {
	var out T
	data, err := fastjson.Marshal(v)
	if err != nil {
		return out, err
	}
	err = fastjson.Unmarshal(data, &out)
	return out, err
}

// decodeRaw decodes raw JSON into a generic value; empty means nil.
func decodeRaw(raw []byte) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var out any
	err := fastjson.Unmarshal(raw, &out)
	return out, err
}

// mergeMaps merges b into a deeply (maps are merged, other values of b win)
// and returns the result, as Landscaper merges the outputs of executions.
func mergeMaps(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if bm, ok := v.(map[string]any); ok {
			if am, ok := out[k].(map[string]any); ok {
				out[k] = mergeMaps(am, bm)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// sha1Hex is the hex SHA-1 of data, as Landscaper's hash annotations are.
func sha1Hex(data []byte) string {
	sum := sha1.Sum(data)
	return hex.EncodeToString(sum[:])
}
