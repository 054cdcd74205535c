package yamlout

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"
)

// TestMarshalIsSigsYAML: MarshalYAML gives sigs.k8s.io/yaml's bytes for
// the values trees print (generic maps and lists as decoded from JSON or
// YAML, with strings YAML must quote, fold or block, numbers at the edges of
// int64, uint64 and float64, HTML characters, typed values) and fails where
// it fails.
func TestMarshalIsSigsYAML(t *testing.T) {
	var numbers any
	dec := json.NewDecoder(bytes.NewReader([]byte(`[0,-0,1,-1,1.5,1.5e3,1e21,1E-7,0.1,9007199254740993,` +
		`9223372036854775807,9223372036854775808,18446744073709551615,18446744073709551616,-9223372036854775809,` +
		`123456789012345678901234567890]`)))
	dec.UseNumber()
	if err := dec.Decode(&numbers); err != nil {
		t.Fatal(err)
	}
	strs := make([]any, 0, len(yamlAtoms))
	m := map[string]any{}
	for i, s := range yamlAtoms {
		strs = append(strs, s)
		if !strings.ContainsAny(s, "0123456789") {
			// Keys with digits yaml.v2 may sort either way
			// (TestInKeyOrderIsYAMLv2 has them).
			m[s] = i
		}
	}
	values := []any{
		nil, true, "", "plain", "<a & b>", 1, -7, int64(math.MaxInt64), uint64(math.MaxUint64), 0.1, 1e21, 1e-7,
		math.MaxFloat64, float32(1.5), numbers, strs, m, []any{}, map[string]any{},
		map[string]any{"nested": map[string]any{"list": []any{map[string]any{"a": nil}, []any{1, "2"}}}},
		map[string]string{"b": "1", "a": "yes"},
		lsv1alpha1.Target{Spec: lsv1alpha1.TargetSpec{Type: "landscaper.gardener.cloud/kubernetes-cluster"}},
		json.RawMessage(`{"z":1,"a":[true,null]}`),
	}
	for _, v := range values {
		want, werr := yaml.Marshal(v)
		got, gerr := Marshal(v)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Errorf("%#v:\n got %q, %v\nwant %q, %v", v, got, gerr, want, werr)
		}
	}
	for _, bad := range []any{math.Inf(1), math.NaN(), func() {}, map[string]any{"c": make(chan int)}} {
		if _, err := Marshal(bad); err == nil {
			t.Errorf("%T: no error; sigs.k8s.io/yaml fails", bad)
		}
	}
}

// TestFromJSONItemIsOneElementArray: an item is written as FromJSON writes
// the array that holds it alone.
func TestFromJSONItemIsOneElementArray(t *testing.T) {
	for _, item := range []string{`{"b":1,"a":"x"}`, `{"s":"line\nline\n","l":[1,{"k":"v"}]}`, `"é"`, `[]`, `{}`, `null`, `{"0o17":1,"1.5":2,"007":3}`} {
		got, gerr := FromJSONItem([]byte(item))
		want, werr := FromJSON([]byte("[" + item + "]"))
		if (gerr != nil) != (werr != nil) || !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %q, %v\nwant %q, %v", item, got, gerr, want, werr)
		}
	}
}

// TestFromJSONAfterAFailure: a decoder taken back after a failure, or used
// by many goroutines in turn, converts the next JSON as a new one does.
func TestFromJSONAfterAFailure(t *testing.T) {
	const good = `{"b":[1,"x"],"a":{"c":null}}`
	want, err := yaml.JSONToYAML([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 100; i++ {
				for _, bad := range []string{`{"a":`, `[1,2`, `{"a":1}}`[:6], `nul`} {
					if _, err := FromJSON([]byte(bad)); err == nil {
						t.Errorf("%s: no error", bad)
					}
				}
				if got, err := FromJSON([]byte(good)); err != nil || !bytes.Equal(got, want) {
					t.Errorf("after failures: got %q, %v; want %q", got, err, want)
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}
