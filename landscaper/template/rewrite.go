package template

import (
	gotmpl "text/template"
	"text/template/parse"
)

// instrument rewrites the parse trees of t so that the execution's budget
// sees the work the template does without calling a function: every range
// iteration and every template (the main one, and each define, block and
// {{template}} call of one) first calls stepFunc, and every printed value
// passes through outputFunc, which checks its size before text/template
// writes it out. Neither prints anything, so the output is unchanged.
func instrument(t *gotmpl.Template) {
	for _, tt := range t.Templates() {
		if tt.Tree == nil || tt.Tree.Root == nil {
			continue
		}
		instrumentList(tt.Tree.Root)
		tt.Tree.Root.Nodes = append([]parse.Node{stepAction(tt.Tree.Root.Position())}, tt.Tree.Root.Nodes...)
	}
}

// instrumentList instruments the nodes of a list.
func instrumentList(l *parse.ListNode) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		instrumentNode(n)
	}
}

// instrumentNode instruments one node and what it contains.
func instrumentNode(n parse.Node) {
	switch n := n.(type) {
	case *parse.ActionNode:
		if n.Pipe != nil && len(n.Pipe.Decl) == 0 && !n.Pipe.IsAssign && !checkedResult(n.Pipe) {
			n.Pipe.Cmds = append(n.Pipe.Cmds, call(outputFunc, n.Position()))
		}
	case *parse.RangeNode:
		instrumentList(n.List)
		instrumentList(n.ElseList)
		if n.List != nil {
			n.List.Nodes = append([]parse.Node{stepAction(n.Position())}, n.List.Nodes...)
		}
	case *parse.IfNode:
		instrumentList(n.List)
		instrumentList(n.ElseList)
	case *parse.WithNode:
		instrumentList(n.List)
		instrumentList(n.ElseList)
	case *parse.ListNode:
		instrumentList(n)
	}
}

// uncheckedBuiltins are text/template's functions that are not guarded
// and may return a list or map they were given.
var uncheckedBuiltins = map[string]bool{"and": true, "or": true, "call": true, "index": true, "slice": true}

// checkedResult tells whether the value of pipe is the result of a guarded
// function, which was checked already.
func checkedResult(pipe *parse.PipeNode) bool {
	if len(pipe.Cmds) == 0 {
		return false
	}
	last := pipe.Cmds[len(pipe.Cmds)-1]
	if len(last.Args) == 0 {
		return false
	}
	id, ok := last.Args[0].(*parse.IdentifierNode)
	return ok && !uncheckedBuiltins[id.Ident]
}

// stepAction is {{stepFunc}} at pos.
func stepAction(pos parse.Pos) *parse.ActionNode {
	return &parse.ActionNode{NodeType: parse.NodeAction, Pos: pos,
		Pipe: &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Cmds: []*parse.CommandNode{call(stepFunc, pos)}}}
}

// call is a command calling the function name without arguments (in a
// pipeline, the value before it is its argument).
func call(name string, pos parse.Pos) *parse.CommandNode {
	id := parse.NewIdentifier(name).SetPos(pos)
	return &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos, Args: []parse.Node{id}}
}
