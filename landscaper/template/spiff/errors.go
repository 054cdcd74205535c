package spiff

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/mandelsoft/spiff/dynaml"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
)

// landscaperTemplateName is the name Landscaper's spiff templater gives
// every template it parses (templateNode in
// pkg/landscaper/installations/executions/template/spiff), which Spiff's
// messages show after "in".
const landscaperTemplateName = "template"

// EvalError is a template that Spiff could not evaluate. Its message is
// Spiff's, with the expressions as the template has them (not as lscli
// guards them) and the unresolved nodes in the order of their paths.
type EvalError struct {
	err error
	// Landscaper is the message as Landscaper's spiff templater gets it
	// from Spiff: the same, but the template named "template".
	Landscaper string
}

func (e *EvalError) Error() string { return e.err.Error() }

// Unwrap returns Spiff's error.
func (e *EvalError) Unwrap() error { return e.err }

// evalError returns the EvalError of err, an error of Cascade for the
// template parsed with the name name.
func evalError(err error, name string) *EvalError {
	err = sortNodes(err)
	return &EvalError{err: unrewriteError(err), Landscaper: unrewriteError(renameSource(err, name, landscaperTemplateName)).Error()}
}

// sortNodes returns err with its unresolved nodes ordered by their paths
// in the document (list elements by index). Spiff finds them walking its
// maps in Go's random order, so its message would list them in another
// order each time.
func sortNodes(err error) error {
	var un dynaml.UnresolvedNodes
	if !errors.As(err, &un) || len(un.Nodes) < 2 {
		return err
	}
	nodes := slices.Clone(un.Nodes)
	slices.SortStableFunc(nodes, func(a, b dynaml.UnresolvedNode) int { return comparePaths(a.Context, b.Context) })
	return dynaml.UnresolvedNodes{Nodes: nodes}
}

// comparePaths compares two node paths step by step; list indices ("[2]")
// compare as numbers.
func comparePaths(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareSteps(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// compareSteps compares two steps of node paths.
func compareSteps(a, b string) int {
	if x, ok := listIndex(a); ok {
		if y, ok := listIndex(b); ok {
			return x - y
		}
	}
	return strings.Compare(a, b)
}

// listIndex returns n of a step "[n]".
func listIndex(step string) (int, bool) {
	if !strings.HasPrefix(step, "[") || !strings.HasSuffix(step, "]") {
		return 0, false
	}
	n, err := strconv.Atoi(step[1 : len(step)-1])
	return n, err == nil
}

// renameSource returns err with the unresolved nodes of the source from
// named to, as Spiff's message names their source.
func renameSource(err error, from, to string) error {
	var un dynaml.UnresolvedNodes
	if from == to || !errors.As(err, &un) {
		return err
	}
	nodes := make([]dynaml.UnresolvedNode, len(un.Nodes))
	for i, n := range un.Nodes {
		if n.SourceName() == from {
			n.Node = renamedNode{Node: n.Node, name: to}
		}
		nodes[i] = n
	}
	return dynaml.UnresolvedNodes{Nodes: nodes}
}

// renamedNode is a node with another source name.
type renamedNode struct {
	spiffyaml.Node
	name string
}

func (n renamedNode) SourceName() string { return n.name }
