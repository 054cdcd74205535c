package cmd

import (
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"
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
