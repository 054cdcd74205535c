package fastyaml

import (
	"bytes"
	"testing"

	"sigs.k8s.io/yaml"
)

// cases are documents in the subset (take: ToJSON must convert them) and
// outside it (ToJSON must decline them).
var cases = []struct {
	doc  string
	take bool
}{
	// Empty documents and comments.
	{"", true},
	{"\n\n", true},
	{"# only a comment\n", true},
	{"   \n# c\n  # d\n", true},
	// Block mappings.
	{"a: b\n", true},
	{"a: b", true},
	{"a: b\nc: d\n", true},
	{"b: 1\na: 2\nB: 3\n_: 4\n", true},
	{"a:\n  b:\n    c: d\n  e: f\ng: h\n", true},
	{"  a: 1\n  b: 2\n", true},
	{"a: 1\n  b: 2\n", false},
	{"a:\n  b: 1\n c: 2\n", false},
	{"a: b # comment\nc: d#e\n", true},
	{"a: b   \n", true},
	{"a:   b\n", true},
	{"a:\n# c\n  b: 1\n# d\n  c: 2\n", true},
	{"a:\n", true},
	{"a:\nb:\n", true},
	{"a: # c\n  b: 1\n", true},
	{"a: # c\nb: 1\n", true},
	{"a: 1\na: 2\n", false},
	{"a: 1\n'a': 2\n", false},
	{"a: 1\n\"a\": 2\n", false},
	{"a:\n  x: 1\n  x: 2\n", false},
	{"a b: c d\n", true},
	{"a:b: c\n", true},
	{"a : b\n", false},
	{"a:b\n", false},
	{"a: b: c\n", false},
	{"a: b:\n", false},
	{"a: http://x:8080/y\n", true},
	{"url: http://example.com/#frag\n", true},
	{"a: b\n  c\n", false},
	{"a: b\n\n  c\n", false},
	{"a: b\n  # c\n", true},
	{"a\n", false},
	{"a: 1\n- b\n", false},
	{"a:\tb\n", false},
	{"\ta: b\n", false},
	{"a: b\t# c\n", false},
	{"a: b\t\n", false},
	{"a: b\r\n", false},
	{"a: b\n\x00", false},
	{"a: \x7f\n", false},
	{"a: \xff\n", false},
	{"a: ü ☃ 😀\n", true},
	{"ü: x\n", true},
	{"a: \u00a0x\n", true},
	{"a: x\u2028y\n", false},
	{"a: x\u0085y\n", false},
	{"\ufeffa: b\n", false},
	{"a: <b> & c\n", true},
	{"a: \"\\u2028\"\n", true},
	// Keys that are not plain strings.
	{"1: a\n", false},
	{"true: a\n", false},
	{"y: a\n", false},
	{"on: a\n", false},
	{"null: a\n", false},
	{"~: a\n", false},
	{"1.5: a\n", false},
	{".inf: a\n", false},
	{"<<: {a: 1}\n", false},
	{"'1': a\n", true},
	{"\"true\": a\n", true},
	{"1a: b\n", true},
	{"1.2.3: b\n", true},
	{"yes-no: b\n", true},
	{"-a: b\n", false},
	{"? a\n: b\n", false},
	{"[a]: b\n", false},
	{"{a: 1}: b\n", false},
	{"'': a\n", true},
	{"'<<': 1\n\"<<\": 2\n", false},
	{"'<<': 1\n", true},
	{"a: <<\n", true},
	{"2001-01-01: a\n.spec: b\n", true},
	{".5: a\n", false},
	{"a: {<<: 1}\n", false},
	// Plain scalars.
	{"a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: N\ng: true\nh: False\ni: TRUE\n", true},
	{"a: yEs\nb: nO\nc: oN\nd: tRUE\n", true},
	{"a: null\nb: ~\nc: Null\nd: NULL\ne: nULL\n", true},
	{"a: 0\nb: 1\nc: -1\nd: 12345678901234\ne: 9223372036854775807\nf: -9223372036854775808\n", true},
	{"a: 9223372036854775808\n", false},
	{"a: -0\n", false},
	{"a: +1\n", false},
	{"a: 0123\n", false},
	{"a: 09\n", false},
	{"a: 0x1f\n", false},
	{"a: 0o17\n", false},
	{"a: 0b101\n", false},
	{"a: 0b+1\n", false},
	{"a: 1_000\n", false},
	{"a: 1.5\n", false},
	{"a: 1.\n", false},
	{"a: .5\n", false},
	{"a: 1e3\n", false},
	{"a: 1e999\n", true},
	{"a: .inf\n", false},
	{"a: -.Inf\n", false},
	{"a: .nan\n", false},
	{"a: .x\n", true},
	{"a: ...\n", true},
	{"a: .5_0\n", false},
	{"a: 0xFFFFFFFFFFFFFFFFFFFF\n", true},
	{"a: 99999999999999999999\n", false},
	{"a: 2001-12-14\n", true},
	{"a: 2001-12-14t21:59:43.10-05:00\n", true},
	{"a: 2001-12-14 21:59:43.10\n", true},
	{"a: 1.2.3\nb: 100Mi\nc: 500m\nd: 1h30m\ne: 10.0.0.1\nf: -foo\ng: 1-2\n", true},
	{"a: v1.2\nb: 1a\nc: '+'\n", true},
	{"a: -\n", false},
	{"a: - b\n", false},
	{"a: ?x\n", false},
	{"a: :x\n", false},
	{"a: &x b\n", false},
	{"a: *x\n", false},
	{"a: !!str b\n", false},
	{"a: %x\n", false},
	{"a: @x\n", false},
	{"a: `x\n", false},
	{"a: x,y]z}\n", true},
	{"a: a#b\n", true},
	{"a: a  b\n", true},
	// Quoted scalars.
	{"a: 'b'\nc: \"d\"\n", true},
	{"a: 'it''s'\n", true},
	{"a: ''\nb: \"\"\n", true},
	{"a: '  x  '\n", true},
	{"a: \"x\\ty\\n\\\"\\\\z\"\n", true},
	{"a: \"\\/\"\n", false},
	{"a: \"\\u00e9\\u263A\"\n", true},
	{"a: \"\\u0000\\u001f\"\n", true},
	{"a: \"\\ud800\"\n", false},
	{"a: \"\\x41\"\n", false},
	{"a: \"\\e\"\n", false},
	{"a: \"b\n  c\"\n", false},
	{"a: 'b\n  c'\n", false},
	{"a: 'b' c\n", false},
	{"a: 'b'#c\n", false},
	{"a: 'b' # c\n", true},
	{"a: \"tab\there\"\n", true},
	{"a: \"1\"\nb: 'true'\nc: \"null\"\n", true},
	{"'a b': 1\n\"c\\nd\": 2\n", true},
	{"'a':1\n", false},
	{"\"a\" : 1\n", false},
	// Block sequences.
	{"- a\n- b\n", true},
	{"a:\n- b\n- c\nd: e\n", true},
	{"a:\n  - b\n  - c\nd: e\n", true},
	{"a:\n  - b\n  c: d\n", false},
	{"- a: 1\n  b: 2\n- c: 3\n", true},
	{"- a: 1\n   b: 2\n", false},
	{"-   a: 1\n    b: 2\n", true},
	{"- a:\n  - x\n  - y\n- b\n", true},
	{"- a:\n    - x\n  b: 1\n", true},
	{"-\n  a: 1\n-\n- x\n", true},
	{"- # c\n  a: 1\n", true},
	{"- - a\n", false},
	{"-\ta\n", false},
	{"- a\n  b\n", false},
	{"- a\nb: 1\n", false},
	{"- 'a': 1\n  \"b\": 2\n", true},
	{"- a: b\n  a: c\n", false},
	{"- 'a'\n- \"b\"\n", true},
	{"a:\n-\n- b\n", true},
	{"-a\n", false},
	// Flow collections.
	{"a: {}\nb: []\n", true},
	{"a: { }\nb: [ ]\n", true},
	{"- {}\n- []\n", true},
	{"metadata: {name: x, namespace: bench}\n", true},
	{"a: {b: 1, c: [x, y, {d: e}], 'f': \"g\"}\n", true},
	{"a: [a, b]  # c\n", true},
	{"a: {b: 1, b: 2}\n", false},
	{"a: {b: 1,}\n", false},
	{"a: [b,]\n", false},
	{"a: {b}\n", false},
	{"a: {b: }\n", false},
	{"a: {b:c}\n", false},
	{"a: [b: c]\n", false},
	{"a: {b: 1\n  , c: 2}\n", false},
	{"a: [a, b] x\n", false},
	{"a: {b: yes, c: 1, d: null, e: x-1}\n", true},
	{"a: [-1]\n", false},
	{"a: {1: x}\n", false},
	{"a: [a#b]\n", false},
	{"a: [a ?b]\n", false},
	{"a: [x  y , z]\n", true},
	// Block scalars.
	{"a: |\n  x\n  y\nb: 1\n", true},
	{"a: |-\n  x\n  y\n", true},
	{"a: |+\n  x\n\n\nb: 1\n", true},
	{"a: |\n  x\n\n\nb: 1\n", true},
	{"a: |-\n  x\n\n\n", true},
	{"a: |\n  x", true},
	{"a: |", true},
	{"a: |\n", true},
	{"a: |+\n", true},
	{"a: |\nb: 1\n", true},
	{"a: |\n\n  x\n", true},
	{"a: |\n     \n  x\n", false},
	{"a: |\n  x\n     \n  y\n", true},
	{"a: |\n  x\n    more\n  y\n", true},
	{"a: |\n    x\n  y\n", false},
	{"a: |\n  x\n # c\nb: 1\n", true},
	{"a: |\n  # not a comment\n  x\n", true},
	{"a: | # comment\n  x\n", true},
	{"a: |#c\n  x\n", false},
	{"a: |2\n  x\n", false},
	{"a: |-2\n  x\n", false},
	{"a: | x\n", false},
	{"a: |\n  x\n\ty\n", false},
	{"a: |\n  \tx\n", false},
	{"a: |\n  x\n  \ty\n", true},
	{"a: |\n  x\t\n", true},
	{"a: |\n \t\n  x\n", false},
	{"a: |\n  x\n  \n", true},
	{"a: |+\n  x\n  \n \n", true},
	{"- |\n  x\n- |-\n  y\n", true},
	{"- a: |\n    x\n  b: 1\n", true},
	{"a:\n  b: |\n   x\n", true},
	{"a: >\n  x\n  y\n\n  z\n    w\n  v\n", true},
	{"a: >-\n  x\n\n\n  y\n", true},
	{"a: >+\n  x\n  y\n\n", true},
	{"a: >\n  x\n  \ty\n  z\n", true},
	{"a: |\n  a: b\n  - c\n  {d}\n", true},
	{"a: |\n  ---\n", true},
	{"a: |\n---\n", false},
	{"a: 1\n...\n", false},
	{"--- \na: 1\n", false},
	{"---a: 1\n", false},
	{"%YAML 1.1\na: 1\n", false},
	// Root scalars and others left to yaml.v2.
	{"x\n", false},
	{"'x'\n", false},
	{"|\n  x\n", false},
	{"{a: 1}\n", false},
	{"a: 1\nb\n", false},
	{"a: b\n\"\n", false},
}

func TestToJSONIsYAMLToJSONStrict(t *testing.T) {
	for _, c := range cases {
		js, ok := toJSON([]byte(c.doc))
		if ok != c.take {
			t.Errorf("%q: ok = %v, want %v", c.doc, ok, c.take)
		}
		if ok {
			want, err := yaml.YAMLToJSONStrict([]byte(c.doc))
			if err != nil {
				t.Errorf("%q: ToJSON took a document YAMLToJSONStrict refuses (%v): %s", c.doc, err, js)
			} else if !bytes.Equal(js, want) {
				t.Errorf("%q:\n got %s\nwant %s", c.doc, js, want)
			}
		}
	}
}

func TestVerifyPanicsOnADifference(t *testing.T) {
	defer func(v bool) { Verify = v }(Verify)
	Verify = true
	if _, ok := ToJSON([]byte("a: b\n")); !ok {
		t.Fatal("ToJSON declined a plain mapping")
	}
	// A document yaml.v2 refuses, which toJSON would take if its check of
	// the text were wrong, makes the check panic: exercise the check with
	// a conversion whose result cannot match.
	defer func() {
		if recover() == nil {
			t.Error("Verify did not panic on a wrong conversion")
		}
	}()
	verify([]byte("a: b\n"), []byte(`{"a":"c"}`))
}
