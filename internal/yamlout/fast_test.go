package yamlout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	yamlv2 "go.yaml.in/yaml/v2"
)

// yamlAtoms are pieces of random strings and keys: every character class
// yaml.v2's analysis and resolution look at, words YAML 1.1 reads as other
// types, numbers in every base, timestamps, base 60 floats, document
// markers.
var yamlAtoms = []string{
	"a", "Z", "x1", "é", "☃", " ", "  ", ":", ": ", "#", " #", "-", "- ", "?", "? ", ".", "..", "...", "---", "_", "/", ",",
	"[", "]", "{", "}", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`", "\\", "\t", "\n", "\x01", "\u2028",
	"y", "Y", "yes", "No", "on", "OFF", "true", "False", "null", "~", ".inf", "-.Inf", ".nan", "<<",
	"0", "1", "007", "1_000", "0x1F", "0o17", "0b101", "-0b11", "1e3", "1.5", ".5", "+1", "-0", "1e400",
	"18446744073709551615", "9223372036854775808", "2025-01-01", "2025-01-01T00:00:00Z", "2025-1-2 3:4:5", "1:20", "190:20:30.15",
	"step", "landscaper.gardener.cloud/mock", "inst-00042", "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d",
}

// simpleAtoms are the atoms fastYAML may write itself: without characters
// it always declines (escapes, quotes, line breaks, non-ASCII).
var simpleAtoms = func() []string {
	var out []string
	for _, a := range yamlAtoms {
		if yamlSimpleChars(a) {
			out = append(out, a)
		}
	}
	return out
}()

func randomYAMLString(r *rand.Rand, atoms []string) string {
	var b strings.Builder
	for range r.IntN(5) {
		b.WriteString(atoms[r.IntN(len(atoms))])
	}
	if r.IntN(20) == 0 { // long enough to fold, or to be a complex key
		for range 10 + r.IntN(30) {
			b.WriteString(atoms[r.IntN(len(atoms))])
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// randomYAMLValue is a random value as readYAMLValue returns them.
func randomYAMLValue(r *rand.Rand, atoms []string, depth int) any {
	switch n := r.IntN(12); {
	case depth > 0 && n < 3:
		m := map[any]any{}
		for range r.IntN(6) {
			m[randomYAMLString(r, atoms)] = randomYAMLValue(r, atoms, depth-1)
		}
		return m
	case depth > 0 && n < 5:
		l := []any{}
		for range r.IntN(4) {
			l = append(l, randomYAMLValue(r, atoms, depth-1))
		}
		return l
	case n == 5:
		return []any{nil, true, false}[r.IntN(3)]
	case n == 6:
		return []any{0, -7, 1 << 40, int64(-1 << 62), uint64(1<<64 - 1)}[r.IntN(5)]
	case n == 7:
		return []any{0.5, 1e21, 1e-7, 123456789.125, -2.5e300}[r.IntN(5)]
	}
	return randomYAMLString(r, atoms)
}

// sameAsYAMLv2 reports whether fastYAML wrote v itself, and fails t, naming
// what, when the document it wrote is not yaml.v2's.
func sameAsYAMLv2(t *testing.T, v any, what string) bool {
	t.Helper()
	got, ok := fastYAML(nil, v)
	if !ok {
		return false
	}
	want, err := yamlv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s %#v:\n got %q\nwant %q", what, v, got, want)
	}
	return true
}

// TestFastYAMLIsYAMLv2: where fastYAML writes a document, it is yaml.v2's,
// byte for byte, for random mappings and sequences (nested, empty, with
// keys that sort by their digits); and it writes most documents of simple
// strings itself.
func TestFastYAMLIsYAMLv2(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	written := 0
	const n = 40000
	for i := range n {
		atoms := yamlAtoms
		if i%4 < 2 {
			atoms = simpleAtoms
		}
		var v any
		if i%2 == 0 {
			m := map[any]any{}
			for range 1 + r.IntN(6) {
				m[randomYAMLString(r, atoms)] = randomYAMLValue(r, atoms, 3)
			}
			v = m
		} else {
			l := []any{}
			for range 1 + r.IntN(4) {
				l = append(l, randomYAMLValue(r, atoms, 3))
			}
			v = l
		}
		if sameAsYAMLv2(t, v, fmt.Sprint("value ", i)) {
			written++
		}
	}
	if written < n/10 {
		t.Errorf("fastYAML wrote %d of %d documents itself; the test checks too little", written, n)
	}
	t.Logf("fastYAML wrote %d of %d documents", written, n)
}

// TestYAMLKeyOrderIsYAMLv2: keys sort as yaml.v2 sorts them: other
// characters, then digits, then letters, numbered keys by their numbers;
// keys yaml.v2 may sort either way are declined.
func TestYAMLKeyOrderIsYAMLv2(t *testing.T) {
	keys := []string{"a", "A", "b", "_x", "a-b", "a.b", "a/b", "ab", "a_b", "Ab", "aB", "-x", ".", "z", "zz", "a~", "a@b"}
	for _, digits := range []string{"", "a1", "0", "a-9b", "z10"} {
		m := map[any]any{}
		for _, k := range keys {
			m[k] = 1
		}
		if digits != "" {
			m[digits] = 2
		}
		got, ok := fastYAML(nil, m)
		if !ok {
			t.Fatalf("fastYAML declined keys with %q", digits)
		}
		want, err := yamlv2.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("with %q: got\n%s\nwant\n%s", digits, got, want)
		}
	}
	// Keys numbered as blueprints and templates number them.
	numbered := map[any]any{}
	for i := range 12 {
		numbered[fmt.Sprintf("subinst-%d.yaml", i)] = i
		numbered[fmt.Sprintf("step%02d", i)] = i
	}
	numbered["a1"], numbered["a01"], numbered["a001"], numbered["x"] = 1, 2, 3, 4
	got, ok := fastYAML(nil, numbered)
	want, err := yamlv2.Marshal(numbered)
	if err != nil {
		t.Fatal(err)
	}
	if !ok || !bytes.Equal(got, want) {
		t.Errorf("numbered keys: ok %v, got\n%s\nwant\n%s", ok, got, want)
	}
	// yaml.v2's comparison runs in a circle on these: 0o17 < 1.5 < 007 < 0o17.
	if _, ok := fastYAML(nil, map[any]any{"0o17": 1, "1.5": 2, "007": 3}); ok {
		t.Error("fastYAML wrote keys that yaml.v2 may sort in any order")
	}
}

// TestFastYAMLFoldsNothing: strings with spaces up to the line width, at
// every depth, as values and as sequence items, are written as yaml.v2
// writes them (it folds at a space beyond column 80, and fastYAML declines
// what it could fold).
func TestFastYAMLFoldsNothing(t *testing.T) {
	written := 0
	for length := 40; length <= 100; length++ {
		s := strings.Repeat("ab ", length/3+1)[:length]
		s = strings.TrimRight(s, " ") + "z"
		var v any = s
		for depth := range 5 {
			if depth%2 == 0 {
				v = map[any]any{"key-" + strings.Repeat("k", depth): v}
			} else {
				v = []any{v, "1:20"}
			}
			if sameAsYAMLv2(t, v, fmt.Sprintf("length %d depth %d", length, depth)) {
				written++
			}
		}
	}
	if written == 0 {
		t.Error("fastYAML wrote no document")
	}
}

// TestFastYAMLLiterals: strings with line breaks (leading, trailing, empty
// lines, indented lines, quotes and indicators inside) are literal block
// scalars as yaml.v2 writes them, in mappings and sequences at every depth.
func TestFastYAMLLiterals(t *testing.T) {
	atoms := []string{"\n", "\n", "\n\n", " ", "  ", "a", "key: value", "- item", "#", "\"q\"", "'s'", "\\", "|", "{x}", "---", "...", "1"}
	r := rand.New(rand.NewPCG(5, 6))
	written := 0
	for i := range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(atoms[r.IntN(len(atoms))])
		}
		s := b.String()
		if !strings.Contains(s, "\n") {
			s += "\n" + s
		}
		var v any = s
		for depth := range 1 + i%4 {
			if (depth+i)%2 == 0 {
				v = map[any]any{"k": v, "other": "x"}
			} else {
				v = []any{"x", v}
			}
		}
		if sameAsYAMLv2(t, v, fmt.Sprintf("%q", s)) {
			written++
		}
	}
	if written < 5000 {
		t.Errorf("fastYAML wrote %d of 20000 documents with literals", written)
	}
	t.Logf("fastYAML wrote %d of 20000 documents with literals", written)
}

// consistentKeys reports whether yaml.v2's key comparison orders the keys
// of every mapping in v: some order of them agrees with it on every pair.
func consistentKeys(v any) bool {
	switch v := v.(type) {
	case map[any]any:
		var keys [][]rune
		for k, item := range v {
			keys = append(keys, []rune(k.(string)))
			if !consistentKeys(item) {
				return false
			}
		}
		slices.SortFunc(keys, compareBy[rune])
		for i := range keys {
			for j := i + 1; j < len(keys); j++ {
				if !keyLess(keys[i], keys[j]) || keyLess(keys[j], keys[i]) {
					return false
				}
			}
		}
	case []any:
		for _, item := range v {
			if !consistentKeys(item) {
				return false
			}
		}
	}
	return true
}

// TestInKeyOrderIsYAMLv2: yaml.v2 writes a value with its mappings in key
// order as it writes the value, for random values whose keys it orders
// (non-ASCII ones among them); and for keys it does not order, the same
// value always gives the same bytes, where yaml.v2 alone does not.
func TestInKeyOrderIsYAMLv2(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	checked := 0
	for range 3000 {
		m := map[any]any{}
		for range 1 + r.IntN(6) {
			m[randomYAMLString(r, yamlAtoms)] = randomYAMLValue(r, yamlAtoms, 3)
		}
		if !consistentKeys(m) {
			continue
		}
		checked++
		want, err := yamlv2.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := yamlv2.Marshal(inKeyOrder(m))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%#v:\n got %q\nwant %q", m, got, want)
		}
	}
	if checked < 1000 {
		t.Errorf("only %d values checked", checked)
	}

	circle := map[string]any{"0o17": "é", "1.5": 2, "007": 3, "a": "x"}
	circleJSON, err := json.Marshal(circle)
	if err != nil {
		t.Fatal(err)
	}
	first, err := FromJSON(circleJSON)
	if err != nil {
		t.Fatal(err)
	}
	plain := map[string]bool{}
	for range 200 {
		got, err := FromJSON(circleJSON)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, first) {
			t.Fatalf("the same value gave\n%s\nand\n%s", first, got)
		}
		y, err := yamlv2.Marshal(circle)
		if err != nil {
			t.Fatal(err)
		}
		plain[string(y)] = true
	}
	if len(plain) < 2 {
		t.Log("yaml.v2 happened to give one order in 200 tries")
	}
}
