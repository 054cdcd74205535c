package output

import (
	"strings"

	"github.com/lscli/lscli/internal/parallel"
)

// TreeNode is a node of a tree DrawTree draws: a label, which may have
// several lines, and the nodes below it, in order.
type TreeNode struct {
	Label    string
	Children []*TreeNode
}

// Add appends children to n and returns n.
func (n *TreeNode) Add(children ...*TreeNode) *TreeNode {
	n.Children = append(n.Children, children...)
	return n
}

// Leaf is a node without children.
func Leaf(label string) *TreeNode { return &TreeNode{Label: label} }

// Branch draws lines as lipgloss's tree draws them with its default
// enumerator and indenter, each followed by a space.
const (
	branchMid  = "├── "
	branchLast = "└── "
	indentMid  = "│   "
	indentLast = "    "
)

// DrawTree writes the tree below root to b: the root's label, then each
// child's label after its branch (a label's later lines after the branch's
// indent), and the child's own children below it, indented. These are the
// lines lipgloss's tree package draws with its default enumerator and
// indenter followed by a space and styles without properties (tabs become
// four spaces), without the spaces it pads lines with: no line ends with a
// space. An empty root label draws no line. Unlike lipgloss, a child with
// an empty label and children of its own is drawn as it is, not merged into
// the child before it. TestDrawTreeIsLipglossTree compares the two.
//
// lipgloss's tree measures and pads every line to join its blocks, which
// made it most of the time of printing a tree of 100,000 lines.
func DrawTree(b *strings.Builder, root *TreeNode) {
	first := true
	if root.Label != "" {
		writeLabel(b, "", "", root.Label, &first)
	}
	drawChildren(b, root.Children, "", &first)
}

// DrawTrees draws the n trees tree(0) … tree(n-1) with DrawTree, on all
// cores (tree must be safe to call at the same time for different i), and
// returns them in order, a blank line between two, without a newline at
// the end.
func DrawTrees(n int, tree func(i int) *TreeNode) string {
	parts := make([]string, n)
	_ = parallel.ForChunks(n, 16, func(_, lo, hi int) error {
		var b strings.Builder
		for i := lo; i < hi; i++ {
			b.Reset()
			DrawTree(&b, tree(i))
			parts[i] = b.String()
		}
		return nil
	})
	return strings.Join(parts, "\n\n")
}

// drawChildren writes nodes, the children of a node whose lines start with
// prefix.
func drawChildren(b *strings.Builder, nodes []*TreeNode, prefix string, first *bool) {
	for i, n := range nodes {
		branch, indent := branchMid, indentMid
		if i == len(nodes)-1 {
			branch, indent = branchLast, indentLast
		}
		writeLabel(b, prefix+branch, prefix+indent, n.Label, first)
		if len(n.Children) > 0 {
			drawChildren(b, n.Children, prefix+indent, first)
		}
	}
}

// writeLabel writes the lines of label, the first after head, the others
// after rest, each on a line of its own without trailing spaces.
func writeLabel(b *strings.Builder, head, rest, label string, first *bool) {
	if strings.IndexByte(label, '\t') >= 0 {
		label = strings.ReplaceAll(label, "\t", "    ")
	}
	lead := head
	for {
		line, more, found := strings.Cut(label, "\n")
		if !*first {
			b.WriteByte('\n')
		}
		*first = false
		if line = strings.TrimRight(line, " "); line == "" {
			b.WriteString(strings.TrimRight(lead, " "))
		} else {
			b.WriteString(lead)
			b.WriteString(line)
		}
		if !found {
			return
		}
		label, lead = more, rest
	}
}
