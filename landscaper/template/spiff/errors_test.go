package spiff

import (
	"errors"
	"testing"
)

// An unresolved template gives Spiff's message twice: with the template's
// name (lscli's), and named "template" as Landscaper's spiff templater
// parses every template. The nodes are listed by path, list elements by
// index, every time (Spiff finds them in Go's map order).
func TestEvalError(t *testing.T) {
	tmpl := []byte(`{"b": "(( nope ))", "a": {"x": "(( imports.x ))"}, "l": ["(( l2 ))", 1, 2, 3, 4, 5, 6, 7, 8, 9, "(( l10 ))"], "c": "(( lambda |x|->x ))"}`)
	wantLscli := "unresolved nodes:\n" +
		"\t(( imports.x ))\tin main\ta.x\t()\t*'imports' not found\n" +
		"\t(( nope ))\tin main\tb\t()\t*'nope' not found\n" +
		"\t(( l2 ))\tin main\tl.[0]\t()\t*'l2' not found\n" +
		"\t(( l10 ))\tin main\tl.[10]\t()\t*'l10' not found"
	wantLandscaper := "unresolved nodes:\n" +
		"\t(( imports.x ))\tin template\ta.x\t()\t*'imports' not found\n" +
		"\t(( nope ))\tin template\tb\t()\t*'nope' not found\n" +
		"\t(( l2 ))\tin template\tl.[0]\t()\t*'l2' not found\n" +
		"\t(( l10 ))\tin template\tl.[10]\t()\t*'l10' not found"
	for i := 0; i < 20; i++ {
		_, err := Execute(Request{Name: "main", Template: tmpl})
		var ee *EvalError
		if !errors.As(err, &ee) {
			t.Fatalf("err = %#v, want an *EvalError", err)
		}
		if got := ee.Error(); got != wantLscli {
			t.Fatalf("Error() =\n%s\nwant\n%s", got, wantLscli)
		}
		if ee.Landscaper != wantLandscaper {
			t.Fatalf("Landscaper =\n%s\nwant\n%s", ee.Landscaper, wantLandscaper)
		}
	}
}

func TestComparePaths(t *testing.T) {
	tests := []struct {
		a, b []string
		want int
	}{
		{[]string{"a", "[2]"}, []string{"a", "[10]"}, -1},
		{[]string{"a", "[10]"}, []string{"a", "b"}, -1}, // "[" sorts before letters
		{[]string{"a"}, []string{"a", "b"}, -1},
		{[]string{"b"}, []string{"a", "z"}, 1},
		{[]string{"x"}, []string{"x"}, 0},
	}
	for _, tt := range tests {
		got := comparePaths(tt.a, tt.b)
		if (got < 0) != (tt.want < 0) || (got > 0) != (tt.want > 0) {
			t.Errorf("comparePaths(%q, %q) = %d, want sign of %d", tt.a, tt.b, got, tt.want)
		}
	}
}
