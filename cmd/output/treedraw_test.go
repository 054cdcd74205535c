package output

import (
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/tree"
	"github.com/muesli/termenv"
)

// labelParts are the pieces random labels are made of: words, the spaces,
// tabs and newlines lipgloss pads, converts or breaks, escape sequences,
// wide characters.
var labelParts = []string{
	"Installation", "ns/name", " ", "  ", "\t", "\n", "\n\n", "é", "☃", "日本", "\x1b[31m", "\x1b[0m", "x: 1", "- a",
	"│", "trailing  ",
}

func randomLabel(r *rand.Rand, nonEmpty bool) string {
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteString(labelParts[r.IntN(len(labelParts))])
	}
	if nonEmpty && b.Len() == 0 {
		b.WriteString("n")
	}
	return b.String()
}

// randomTrees builds the same random tree twice: as TreeNodes and as a
// lipgloss tree. A node with children has a label that is not empty (see
// DrawTree).
func randomTrees(r *rand.Rand, depth int) (*TreeNode, *tree.Tree) {
	label := randomLabel(r, true)
	n, t := &TreeNode{Label: label}, tree.Root(label)
	for range r.IntN(4) {
		if depth > 0 && r.IntN(2) == 0 {
			cn, ct := randomTrees(r, depth-1)
			n.Add(cn)
			t.Child(ct)
			continue
		}
		leaf := randomLabel(r, false)
		n.Add(Leaf(leaf))
		t.Child(leaf)
	}
	return n, t
}

// lipglossDraw is how lscli drew trees with lipgloss, trailing spaces
// removed.
func lipglossDraw(t *tree.Tree) string {
	r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.Ascii))
	s := t.RootStyle(r.NewStyle()).ItemStyle(r.NewStyle()).EnumeratorStyle(r.NewStyle()).
		Enumerator(func(c tree.Children, i int) string { return tree.DefaultEnumerator(c, i) + " " }).
		Indenter(func(c tree.Children, i int) string { return tree.DefaultIndenter(c, i) + " " }).
		String()
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// TestDrawTreeIsLipglossTree: DrawTree draws the lines lipgloss's tree
// draws, without trailing spaces, for random trees of multi-line labels
// with tabs, escape sequences, wide characters and empty lines.
func TestDrawTreeIsLipglossTree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		n, lt := randomTrees(r, 1+i%4)
		if i%7 == 0 {
			n.Label, lt = "", lt.Root("")
		}
		var b strings.Builder
		DrawTree(&b, n)
		if got, want := b.String(), lipglossDraw(lt); got != want {
			t.Fatalf("tree %d:\ngot\n%s\nwant\n%s\n%q\n%q", i, got, want, got, want)
		}
	}
}
