package dataflow

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/internal/memo"
)

// targetValue returns a Target as templates see it: the whole object as a
// JSON map {apiVersion, kind, metadata, spec}.
func targetValue(t *lsv1alpha1.Target) (map[string]any, error) {
	c := *t // a shallow copy: only top-level fields change, the rest is encoded
	c.APIVersion = lsv1alpha1.SchemeGroupVersion.String()
	c.Kind = "Target"
	c.ManagedFields = nil
	m, err := toGeneric[map[string]any](&c)
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

// generic holds genericOf's values by the JSON of their Go values;
// inlineBlueprints holds blueprintValue's by an inline blueprint's files;
// rawValues holds decodeRaw's by their text. They are apart because they
// hold values of different kinds, few blueprints against many data
// objects, and a memo that is full is emptied. Their values are never
// handed out, only deep copies of them.
var generic, inlineBlueprints, rawValues = memo.Bounded[string, any]{Size: memo.StringSize},
	memo.Bounded[string, any]{Size: memo.StringSize}, memo.Bounded[string, any]{Size: memo.StringSize}

// genericOf is toGeneric[any] for values that many installations share,
// such as one blueprint rolled out many times (see decodeGeneric).
func genericOf(v any) (any, error) {
	data, err := fastjson.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeGeneric(data, &generic)
}

// decodeGeneric decodes the JSON text data into a generic value, each
// text once, kept in kept: it returns deep copies of the value kept, which
// cost a fraction of decoding, so that a template that changes its value
// changes only its own.
func decodeGeneric(data []byte, kept *memo.Bounded[string, any]) (any, error) {
	if cached, ok := kept.Get(string(data)); ok {
		return runtime.DeepCopyJSONValue(cached), nil
	}
	var out any
	if err := fastjson.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	kept.Put(string(data), out)
	return runtime.DeepCopyJSONValue(out), nil
}

// blueprintValue is genericOf(def), the blueprint definition as templates
// see it, without encoding an inline blueprint's files on every call: the
// value of an inline blueprint is looked up by its files' JSON.
func blueprintValue(def lsv1alpha1.BlueprintDefinition) (any, error) {
	if def.Reference != nil || def.Inline == nil {
		return genericOf(def)
	}
	raw := def.Inline.Filesystem.RawMessage
	if cached, ok := inlineBlueprints.Get(string(raw)); ok {
		return runtime.DeepCopyJSONValue(cached), nil
	}
	v, err := genericOf(def)
	if err != nil {
		return nil, err
	}
	inlineBlueprints.Put(string(raw), runtime.DeepCopyJSONValue(v))
	return v, nil
}

// decodeRaw decodes raw JSON into a generic value; empty means nil. Texts
// of up to maxKeptRaw bytes are kept (see decodeGeneric): the data objects
// of a blueprint rolled out many times hold the same few values. Longer
// ones (kubeconfigs, big exports) are decoded each time, so that what is
// kept stays small and they do not push the few out.
func decodeRaw(raw []byte) (any, error) {
	switch {
	case len(raw) == 0:
		return nil, nil
	case len(raw) > maxKeptRaw:
		var out any
		err := fastjson.Unmarshal(raw, &out)
		return out, err
	}
	return decodeGeneric(raw, &rawValues)
}

const maxKeptRaw = 4096

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
