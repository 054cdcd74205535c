package template

import (
	"encoding/json"
	"reflect"
	"sync"

	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/fastjson"
)

// maxDecoded bounds the cache of DecodeYAML.
const maxDecoded = 4096

// decoded caches what DecodeYAML made of a text for a target type: the JSON
// of the decoded value, which decodes into a fresh value much faster than
// YAML does.
var decoded = struct {
	sync.Mutex
	m map[decodedKey][]byte
}{m: map[decodedKey][]byte{}}

type decodedKey struct {
	typ  reflect.Type
	text string
}

// DecodeYAML decodes the YAML (or JSON) data into out, a pointer to a zero
// value, as
// sigs.k8s.io/yaml's Unmarshal does, which converts YAML scalars by the type
// of the field they go to. A blueprint rolled out many times renders the same
// text again and again; the decoded value of a text is kept (as JSON, for its
// target type) and decoded from there the next time.
func DecodeYAML(data []byte, out any) error {
	key := decodedKey{typ: reflect.TypeOf(out), text: string(data)}
	decoded.Lock()
	js, ok := decoded.m[key]
	decoded.Unlock()
	if ok {
		return fastjson.Unmarshal(js, out)
	}
	if err := yaml.Unmarshal(data, out); err != nil {
		return err
	}
	js, err := json.Marshal(out)
	if err != nil {
		return nil // out is decoded; it just cannot be cached
	}
	decoded.Lock()
	if len(decoded.m) >= maxDecoded {
		clear(decoded.m)
	}
	decoded.m[key] = js
	decoded.Unlock()
	return nil
}
