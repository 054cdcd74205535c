package template

import (
	"encoding/json"
	"reflect"

	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/internal/memo"
)

// decoded caches what DecodeYAML made of a text for a target type: the JSON
// of the decoded value, which decodes into a fresh value much faster than
// YAML does.
var decoded = memo.Bounded[memo.TypedText, []byte]{Max: 4096, Size: func(k memo.TypedText) int { return len(k.Text) }}

// DecodeYAML decodes the YAML (or JSON) data into out, a pointer to a zero
// value, as
// sigs.k8s.io/yaml's Unmarshal does, which converts YAML scalars by the type
// of the field they go to. A blueprint rolled out many times renders the same
// text again and again; the decoded value of a text is kept (as JSON, for its
// target type) and decoded from there the next time.
func DecodeYAML(data []byte, out any) error {
	key := memo.TypedText{Type: reflect.TypeOf(out), Text: string(data)}
	if js, ok := decoded.Get(key); ok {
		return fastjson.Unmarshal(js, out)
	}
	if err := yaml.Unmarshal(data, out); err != nil {
		return err
	}
	js, err := json.Marshal(out)
	if err != nil {
		return nil // out is decoded; it just cannot be cached
	}
	decoded.Put(key, js)
	return nil
}
