// Package yamlout writes YAML as sigs.k8s.io/yaml writes it (JSON first,
// then go.yaml.in/yaml/v2), which is what kubectl prints and Landscaper's
// templates' toYaml gives, only faster and always the same bytes for the
// same value:
//
//   - the JSON is read by a JSON decoder into the values the YAML parser
//     would give, not parsed as YAML;
//   - block mappings and sequences of plain, double-quoted and literal
//     scalars of printable ASCII are written directly (fastYAML), anything
//     else by yaml.v2;
//   - mappings whose keys yaml.v2's comparison does not order (it compares
//     runs of digits by value) are handed to yaml.v2 in an order of their
//     own (inKeyOrder), where yaml.v2 alone followed Go's map order.
package yamlout

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/lscli/lscli/internal/fastjson"
	yamlv2 "go.yaml.in/yaml/v2"
)

// Marshal returns the bytes of sigs.k8s.io/yaml's Marshal(v): v encoded as
// JSON (by package fastjson, as encoding/json does), then converted by
// FromJSON. It fails where sigs.k8s.io/yaml fails (TestMarshalIsSigsYAML).
func Marshal(v any) ([]byte, error) {
	data, err := fastjson.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("error marshaling into JSON: %w", err)
	}
	return FromJSON(data)
}

// FromJSON is sigs.k8s.io/yaml's JSONToYAML, faster and always the same
// bytes for the same value: the JSON is read by a JSON decoder instead of
// the YAML parser, into the values the YAML parser would give (a number is
// an int if it is one, else a uint64, else a float64), which fastYAML
// writes where it can, else the same YAML encoder with the mappings in key
// order (see inKeyOrder). Every YAML lscli prints goes through it;
// TestYAMLListStreams (package cmd/output) checks the bytes against
// JSONToYAML.
func FromJSON(data []byte) ([]byte, error) {
	return fromJSON(data, false)
}

// FromJSONItem is FromJSON of the JSON array that holds data as its one
// element, without writing that array: a value written as an item of a
// sequence at the start of a line, as the items of a YAML List are.
func FromJSONItem(data []byte) ([]byte, error) {
	return fromJSON(data, true)
}

func fromJSON(data []byte, item bool) ([]byte, error) {
	dec := decoders.Get().(*jsontext.Decoder)
	defer decoders.Put(dec)
	// A bytes.Buffer is read in place, not copied into the decoder's buffer.
	dec.Reset(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true))
	v, err := readYAMLValue(dec)
	if err != nil {
		return nil, err
	}
	if item {
		v = []any{v}
	}
	if out, ok := fastYAML(make([]byte, 0, 2*len(data)), v); ok {
		return out, nil
	}
	return yamlv2.Marshal(inKeyOrder(v))
}

// decoders holds the JSON decoders of fromJSON: a Decoder is a large
// struct, and allocating one for each small value (a deploy item's
// configuration in a tree) cost more than reading the value.
var decoders = sync.Pool{New: func() any { return new(jsontext.Decoder) }}

// inKeyOrder returns v with each of its mappings as a yaml.v2 MapSlice
// whose keys are in yaml.v2's order, which yaml.v2 writes as it writes the
// mapping. yaml.v2 sorts a mapping's keys itself, but its comparison of
// runs of digits is no order for some sets of keys ("0o17" < "1.5" < "007"
// < "0o17"), so that its output for them depends on the order Go's map
// hands the keys out; sorted here from the keys in byte order, the same
// input always gives the same bytes, and every other mapping the bytes
// yaml.v2 gives (TestInKeyOrderIsYAMLv2).
func inKeyOrder(v any) any {
	switch v := v.(type) {
	case map[any]any:
		keys := make([][]rune, 0, len(v))
		byKey := make(map[string]any, len(v))
		for k, item := range v {
			s, ok := k.(string)
			if !ok {
				return v // JSON has only string keys; leave anything else to yaml.v2
			}
			keys = append(keys, []rune(s))
			byKey[s] = item
		}
		slices.SortFunc(keys, func(a, b []rune) int { return strings.Compare(string(a), string(b)) })
		slices.SortStableFunc(keys, compareBy[rune])
		out := make(yamlv2.MapSlice, len(keys))
		for i, k := range keys {
			out[i] = yamlv2.MapItem{Key: string(k), Value: inKeyOrder(byKey[string(k)])}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = inKeyOrder(item)
		}
		return out
	}
	return v
}

// readYAMLValue reads the next JSON value of dec as the YAML parser would
// decode it.
func readYAMLValue(dec *jsontext.Decoder) (any, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case 'n':
		return nil, nil
	case 't', 'f':
		return tok.Bool(), nil
	case '"':
		return tok.String(), nil
	case '0':
		return yamlNumber(tok.String()), nil
	case '[':
		list := []any{}
		for dec.PeekKind() != ']' {
			v, err := readYAMLValue(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.ReadToken()
		return list, err
	case '{':
		m := map[any]any{}
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := tok.String() // before the next read voids tok
			v, err := readYAMLValue(dec)
			if err != nil {
				return nil, err
			}
			m[name] = v
		}
		_, err := dec.ReadToken()
		return m, err
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// yamlNumber is the value the YAML parser resolves the plain scalar s, a
// JSON number, to.
func yamlNumber(s string) any {
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		if int64(int(i)) == i {
			return int(i)
		}
		return i
	}
	if u, err := strconv.ParseUint(s, 0, 64); err == nil {
		return u
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return s // beyond float64: the YAML parser keeps it as a string
}
