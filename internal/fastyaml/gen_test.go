package fastyaml

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// gen writes random YAML documents from the subset and around its edges.
type gen struct{ r *rand.Rand }

func (g gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }
func (g gen) chance(p float64) bool   { return g.r.Float64() < p }

var (
	genKeys = []string{"a", "b", "c", "A", "_x", "a b", "apiVersion", "kind", "metadata", "name",
		"x.y/z", "1a", "ü", "'q'", `"d"`, `"e\tf"`, "''", "1", "y", "on", "true", "null", "<<",
		"-k", "k:", "a#b", "a #b", "1.5", "~"}
	genPlain = []string{"a", "b c", "x-y", "bench-seed", "1", "-1", "0", "42", "007", "1.5", "yes",
		"No", "on", "OFF", "y", "~", "null", "Null", "true", "FALSE", "1e3", ".inf", ".x", "0x1F",
		"1_000", "2001-01-01", "2001-12-14 21:59:43.10", "a#b", "a #b", "http://x:80/y",
		"a: b", "a:", "-", "- x", "-x", "&a", "*a", "!t", "x,y", "[x", "x]", "<&>", "ü☃",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-0", "+1",
		"1.2.3", "100Mi", "500m", ".5", "...", "0b11", "0o7", "%x", "@x", "?x", ":x", "a  b",
		"a'b", `a"b`, `a\b`, "{{ .x }}", "$(x)", "é"}
	genFlowPlain = []string{"a", "b c", "x-y", "1", "0", "yes", "null", "~", "1.5", "007",
		"bench-seed", "2001-01-01", "a#b", "-1", "x/y", "a:b", "?x", "é"}
	genQuoted = []string{`''`, `'a'`, `'it''s'`, `'a b  '`, `'1'`, `'yes'`, `''''`, `'a"b'`,
		`""`, `"a"`, `"a\"b"`, `"a\\b"`, `"a\nb"`, `"\t"`, `"\u00e9"`, `"\u263a\u0001"`,
		`"\ud800"`, `"\x41"`, `"\/"`, `"\e"`, `"a	b"`, `"<>&"`, `"\u2028"`, `"'"`, `"#"`}
	genText = []string{"x", "a: b", "- c", "{d}", "# e", "'f'", "\"g", "|", "h\ti", "\tj",
		"k  ", "l #m", "---", "  n", "ü", "<&>", "{{ .Values }}"}
	genComments = []string{"# c", "#", "#c: d", "# - e", "#\tf"}
)

func (g gen) sp(n int) string { return strings.Repeat(" ", n) }

// comment returns nothing or a comment after a value.
func (g gen) comment() string {
	if g.chance(0.15) {
		return g.pick([]string{" ", "  ", "\t", ""}) + g.pick(genComments)
	}
	if g.chance(0.05) {
		return g.pick([]string{" ", "  ", "\t"})
	}
	return ""
}

// filler returns blank or comment lines.
func (g gen) filler() string {
	var b strings.Builder
	for g.chance(0.1) {
		switch g.r.IntN(3) {
		case 0:
			b.WriteString("\n")
		case 1:
			b.WriteString(g.sp(g.r.IntN(6)) + "\n")
		default:
			b.WriteString(g.sp(g.r.IntN(6)) + g.pick(genComments) + "\n")
		}
	}
	return b.String()
}

func (g gen) scalar() string {
	switch g.r.IntN(10) {
	case 0, 1:
		return g.pick(genQuoted)
	case 2:
		return g.flow(0)
	default:
		return g.pick(genPlain)
	}
}

func (g gen) flow(depth int) string {
	n := g.r.IntN(4)
	value := func() string {
		switch r := g.r.IntN(10); {
		case r < 2 && depth < 3:
			return g.flow(depth + 1)
		case r < 4:
			return g.pick(genQuoted)
		default:
			return g.pick(genFlowPlain)
		}
	}
	sep := func() string { return g.pick([]string{", ", ",", ",  ", " , "}) }
	var b strings.Builder
	if g.chance(0.5) {
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(sep())
			}
			b.WriteString(g.pick(genFlowPlain[:12]) + g.pick([]string{": ", ": ", ":", " : "}) + value())
		}
		b.WriteString(g.pick([]string{"}", "}", " }", ",}"}))
		return b.String()
	}
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(sep())
		}
		b.WriteString(value())
	}
	b.WriteString(g.pick([]string{"]", "]", " ]", ",]"}))
	return b.String()
}

// blockScalar returns a block scalar header and its lines, for a value in a
// collection at indentation indent.
func (g gen) blockScalar(indent int) string {
	var b strings.Builder
	b.WriteString(g.pick([]string{"|", "|", "|", ">"}))
	b.WriteString(g.pick([]string{"", "", "-", "+", "2", "-1"}))
	if g.chance(0.2) {
		b.WriteString(g.pick([]string{" # c", "#c", " x", "  "}))
	}
	b.WriteString("\n")
	in := indent + 1 + g.r.IntN(3)
	for range g.r.IntN(7) {
		switch g.r.IntN(8) {
		case 0:
			b.WriteString("\n")
		case 1:
			b.WriteString(g.sp(g.r.IntN(in+3)) + "\n")
		case 2:
			b.WriteString(g.sp(in+1+g.r.IntN(3)) + g.pick(genText) + "\n")
		case 3:
			b.WriteString(g.sp(g.r.IntN(in+1)) + "\t" + g.pick(genText) + "\n")
		default:
			b.WriteString(g.sp(in) + g.pick(genText) + "\n")
		}
	}
	return b.String()
}

// value returns what follows "key:" or "-" in a collection at indent:
// the rest of the line and the lines after it.
func (g gen) value(indent, depth int, afterKey bool) string {
	switch r := g.r.IntN(20); {
	case r < 9 || depth > 4:
		return " " + g.scalar() + g.comment() + "\n"
	case r < 11:
		return " " + g.blockScalar(indent)
	case r < 12:
		return g.comment() + "\n"
	case r < 15:
		return g.comment() + "\n" + g.filler() + g.mapping(indent+1+g.r.IntN(3), depth+1)
	default:
		in := indent + 1 + g.r.IntN(3)
		if afterKey && g.chance(0.5) {
			in = indent
		}
		return g.comment() + "\n" + g.filler() + g.seq(in, depth+1)
	}
}

func (g gen) mapping(indent, depth int) string {
	var b strings.Builder
	keys := make([]string, 1+g.r.IntN(4))
	for i := range keys {
		keys[i] = g.pick(genKeys[:12])
		if g.chance(0.1) {
			keys[i] = g.pick(genKeys)
		}
	}
	for _, k := range keys {
		b.WriteString(g.sp(indent) + k + ":" + g.value(indent, depth, true) + g.filler())
	}
	return b.String()
}

func (g gen) seq(indent, depth int) string {
	var b strings.Builder
	for range 1 + g.r.IntN(4) {
		switch r := g.r.IntN(10); {
		case r < 3 && depth < 5:
			// A compact mapping: its first key on the line of "-".
			in := indent + 2 + g.r.IntN(2)
			m := g.mapping(in, depth+1)
			b.WriteString(g.sp(indent) + "-" + g.sp(in-indent-1) + m[in:])
		default:
			b.WriteString(g.sp(indent) + "-" + g.value(indent, depth, false))
		}
		b.WriteString(g.filler())
	}
	return b.String()
}

// document returns a random document; some are mutated by a character
// inserted, removed or a line repeated.
func (g gen) document() string {
	var doc string
	switch r := g.r.IntN(20); {
	case r == 0:
		doc = g.filler()
	case r < 4:
		doc = g.filler() + g.seq(g.r.IntN(2), 0)
	default:
		doc = g.filler() + g.mapping(g.r.IntN(2), 0)
	}
	if g.chance(0.3) && len(doc) > 0 {
		i := g.r.IntN(len(doc))
		switch g.r.IntN(3) {
		case 0:
			doc = doc[:i] + g.pick([]string{" ", "\t", "-", ":", "#", "'", `"`, "|", "{", "[", "\n", "a", "1"}) + doc[i:]
		case 1:
			doc = doc[:i] + doc[i+1:]
		default:
			lines := strings.SplitAfter(doc, "\n")
			j := g.r.IntN(len(lines))
			lines = append(lines[:j+1], lines[j:]...)
			doc = strings.Join(lines, "")
		}
	}
	return doc
}

// TestRandomDocuments converts random documents both ways: whatever
// ToJSON takes, YAMLToJSONStrict must convert to the same bytes.
func TestRandomDocuments(t *testing.T) {
	n := 40000
	if testing.Short() {
		n = 4000
	}
	g := gen{rand.New(rand.NewPCG(13, 17))}
	taken, valid := 0, 0
	for range n {
		doc := g.document()
		js, ok := toJSON([]byte(doc))
		want, err := yaml.YAMLToJSONStrict([]byte(doc))
		if err == nil {
			valid++
		}
		if !ok {
			continue
		}
		taken++
		if err != nil {
			t.Fatalf("ToJSON took a document YAMLToJSONStrict refuses (%v):\n%s\ngot %s", err, doc, js)
		}
		if !bytes.Equal(js, want) {
			t.Fatalf("document:\n%s\n got %s\nwant %s", doc, js, want)
		}
	}
	t.Logf("%d documents, %d valid YAML, %d taken", n, valid, taken)
	if taken < n/10 {
		t.Errorf("ToJSON took only %d of %d documents: the generator misses the subset", taken, n)
	}
}

func FuzzToJSON(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c.doc))
	}
	g := gen{rand.New(rand.NewPCG(1, 2))}
	for range 200 {
		f.Add([]byte(g.document()))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		js, ok := toJSON(doc)
		if !ok {
			return
		}
		want, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			t.Fatalf("ToJSON took a document YAMLToJSONStrict refuses (%v):\n%q\ngot %s", err, doc, js)
		}
		if !bytes.Equal(js, want) {
			t.Fatalf("document:\n%q\n got %s\nwant %s", doc, js, want)
		}
	})
}
