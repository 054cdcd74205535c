package output

import (
	"math/rand/v2"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

func TestTableGolden(t *testing.T) {
	tests := []struct {
		name   string
		golden string
		objs   []fakecluster.Object
		st     Styles
	}{
		{name: "all kinds", golden: "table", objs: landscape(), st: plainStyles()},
		{name: "all kinds color", golden: "table-color", objs: landscape(), st: colorStyles()},
		{name: "one kind", golden: "table-deployitems", objs: onlyKind(landscape(), kindDeployItem), st: plainStyles()},
		{name: "one kind color", golden: "table-deployitems-color", objs: onlyKind(landscape(), kindDeployItem), st: colorStyles()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustTable(t, tt.objs, tt.st, TableOptions{})
			if !tt.st.Enabled() {
				noEscapes(t, got)
			}
			checkGolden(t, tt.golden, got)
		})
	}
}

// TestTableColorAlignment checks that colored cells do not shift the columns:
// without escape sequences, colored output is the plain output.
func TestTableColorAlignment(t *testing.T) {
	plain := mustTable(t, landscape(), plainStyles(), TableOptions{})
	colored := mustTable(t, landscape(), colorStyles(), TableOptions{})
	if got := stripSeqs(colored); got != plain {
		t.Errorf("colored table without escapes differs from the plain one:\n%s", lineDiff(plain, got))
	}
}

func TestTableEmpty(t *testing.T) {
	if got := mustTable(t, nil, plainStyles(), TableOptions{}); got != NoObjects {
		t.Errorf("Table(nil) = %q, want %q", got, NoObjects)
	}
}

func TestTableOneLineCells(t *testing.T) {
	d := &lsv1alpha1.DeployItem{ObjectMeta: meta("ns", "d")}
	d.Spec.Type = "odd\ttype\nwith breaks"
	got := mustTable(t, []fakecluster.Object{d}, plainStyles(), TableOptions{})
	want := "NAMESPACE   NAME   TYPE                   PHASE   JOBID   JOBIDFINISHED\n" +
		"ns          d      odd type with breaks   -       -       -\n"
	if got != want {
		t.Errorf("Table =\n%s\nwant\n%s", got, want)
	}
}

func onlyKind(objs []fakecluster.Object, kind string) []fakecluster.Object {
	var out []fakecluster.Object
	for _, o := range objs {
		if kindOf(o) == kind {
			out = append(out, o)
		}
	}
	return out
}

// stripSeqs removes SGR escape sequences.
func stripSeqs(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexByte(s, 'm')
		s = s[j+1:]
	}
}

// TestAlignLinesIsTabwriters: the one-pass alignment gives tabwriter's
// bytes, for tables of every shape, widths and characters.
func TestAlignLinesIsTabwriters(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"", "a", "Succeeded", "ns/name-0", "ü", "日本", "x y", "\v", "\f", "\xff", "\t"}
	for n := range 2000 {
		cols := 1 + rng.IntN(5)
		lines := make([][]string, 1+rng.IntN(6))
		for i := range lines {
			width := cols
			if rng.IntN(10) == 0 {
				width = 1 + rng.IntN(5)
			}
			lines[i] = make([]string, width)
			for j := range lines[i] {
				for range rng.IntN(3) {
					lines[i][j] += pieces[rng.IntN(len(pieces))]
				}
			}
		}
		if got, want := alignLines(lines), tabwriterLines(lines); got != want {
			t.Fatalf("case %d %q:\ngot  %q\nwant %q", n, lines, got, want)
		}
	}
	// Long tables are aligned on all cores, in chunks.
	long := make([][]string, 3*minParallel+7)
	for i := range long {
		long[i] = []string{strings.Repeat("x", rng.IntN(30)), pieces[rng.IntN(6)], strings.Repeat("ü", rng.IntN(9))}
	}
	if got, want := alignLines(long), tabwriterLines(long); got != want {
		t.Fatalf("a long table differs from tabwriter's")
	}
}

// mustTable is Table for tests: an error fails t.
func mustTable(t *testing.T, objs []fakecluster.Object, st Styles, opts TableOptions) string {
	t.Helper()
	got, err := Table(objs, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	return got
}
