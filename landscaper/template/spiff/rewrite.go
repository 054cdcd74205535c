package spiff

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/mandelsoft/spiff/dynaml"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
)

// Names of the functions the rewritten expressions call (see guard.go).
const (
	probeCall   = "__lscli_call"   // at the start of every lambda call
	probeRange  = "__lscli_range"  // instead of a range [a..b]
	probeFormat = "__lscli_format" // before format(...)
	probeEval   = "__lscli_eval"   // on the string eval(...) parses
	probeLambda = "__lscli_lambda" // on the string lambda "..." parses
	probePrefix = "__lscli_"       // starts all of them
	exprPrefix  = "(( "            // a dynaml expression in a string
	exprSuffix  = " ))"
)

// unavailable are Spiff's built-in functions that lscli refuses: their
// results depend on the wall clock or a secure random source, so the same
// input would not render the same output.
var unavailable = map[string]string{
	"rand":     "a secure random source",
	"bcrypt":   "a random salt",
	"md5crypt": "a random salt",
	"sync":     "the wall clock",
	"archive":  "the wall clock (file times in the archive)",
}

// rewriteNode rewrites the dynaml expressions of a template tree in place
// (see rewriteExpr) and returns the root, which may be a new node.
func rewriteNode(n spiffyaml.Node) (spiffyaml.Node, bool, error) {
	return walkNode(n, rewriteSource)
}

// walkNode applies source to every string of a template tree, in place,
// and returns the root, which may be a new node, and whether anything
// changed.
func walkNode(n spiffyaml.Node, source func(string) (string, bool, error)) (spiffyaml.Node, bool, error) {
	if n == nil {
		return n, false, nil
	}
	changed := false
	switch v := n.Value().(type) {
	case map[string]spiffyaml.Node:
		for k, child := range v {
			c, ch, err := walkNode(child, source)
			if err != nil {
				return nil, false, err
			}
			v[k], changed = c, changed || ch
		}
	case []spiffyaml.Node:
		for i, child := range v {
			c, ch, err := walkNode(child, source)
			if err != nil {
				return nil, false, err
			}
			v[i], changed = c, changed || ch
		}
	case string:
		out, ch, err := source(v)
		if err != nil || !ch {
			return n, false, err
		}
		return spiffyaml.NewNode(out, n.SourceName()), true, nil
	}
	return n, changed, nil
}

// rewriteSource rewrites the expression of a "(( ... ))" string; other
// strings are left alone, and so are expressions that do not parse (Spiff
// reports them).
func rewriteSource(s string) (string, bool, error) {
	return transformSource(s, rewriteNodeExpr)
}

// transformSource parses the expression of a "(( ... ))" string, applies
// node to every node of its tree, children first, and writes it back.
func transformSource(s string, node func(any) (any, bool, error)) (string, bool, error) {
	inner, ok := dynamlOf(s)
	if !ok {
		return s, false, nil
	}
	expr, err := dynaml.Parse(inner, nil, nil)
	if err != nil {
		return s, false, nil
	}
	out, changed, err := transformExpr(expr, node)
	if err != nil || !changed {
		return s, false, err
	}
	printable, _, err := transformExpr(out, printableNode)
	if err != nil {
		return s, false, err
	}
	return exprPrefix + fmt.Sprint(printable) + exprSuffix, true, nil
}

// printed is an expression node that only prints: the text Spiff parses
// back into the node it replaced (see printableNode).
type printed struct {
	text string
}

// Evaluate is never called: a printed node is only written out.
func (p printed) Evaluate(dynaml.Binding, bool) (any, dynaml.EvaluationInfo, bool) {
	info := dynaml.DefaultInfo()
	return info.Error("lscli: a printed expression was evaluated")
}

func (p printed) String() string { return p.text }

// printableNode replaces the nodes whose String does not parse back into
// them: a projection (list.[*].name) or slice (list.[1..2]) prints as
// "list.[*] ().name" or "list.[[1..2]].[*] ".
func printableNode(e any) (any, bool, error) {
	p, ok := e.(dynaml.ProjectionExpr)
	if !ok {
		return e, false, nil
	}
	base := fmt.Sprintf("%s.[*]", p.Expression)
	if sl, ok := p.Expression.(dynaml.SliceExpr); ok {
		base = fmt.Sprintf("%s.[%s..%s]", sl.Expression, orEmpty(sl.Range.Start), orEmpty(sl.Range.End))
	}
	rest := strings.TrimPrefix(fmt.Sprint(p.Projection), "()")
	return printed{text: base + rest}, true, nil
}

// orEmpty prints e, or nothing for nil.
func orEmpty(e dynaml.Expression) string {
	if e == nil {
		return ""
	}
	return fmt.Sprint(e)
}

// dynamlOf returns the expression of a "(( ... ))" string.
func dynamlOf(s string) (string, bool) {
	if !strings.HasPrefix(s, "((") || !strings.HasSuffix(s, "))") || strings.HasPrefix(s, "((!") {
		return "", false
	}
	return s[2 : len(s)-2], true
}

// rewriteExpr returns e with every lambda body guarded (probeCall first),
// every range made by probeRange, format checked by probeFormat first, the
// strings that eval and lambda parse rewritten by probeEval and probeLambda
// the same way; calls of unavailable functions are an error.
func rewriteExpr(e dynaml.Expression) (dynaml.Expression, bool, error) {
	return transformExpr(e, rewriteNodeExpr)
}

// transformExpr applies node to the nodes of e, children first.
func transformExpr(e dynaml.Expression, node func(any) (any, bool, error)) (dynaml.Expression, bool, error) {
	t := transformer{node: node}
	v, changed, err := t.value(reflect.ValueOf(&e).Elem())
	if err != nil || !changed {
		return e, false, err
	}
	return v.Interface().(dynaml.Expression), true, nil
}

// exprType is the type of fields where any expression may stand.
var exprType = reflect.TypeFor[dynaml.Expression]()

// transformer applies node to an expression tree.
type transformer struct {
	node func(any) (any, bool, error)
}

// value transforms the expressions in v, a struct, slice or interface of
// the expression tree. It returns a copy when anything changed.
func (t transformer) value(v reflect.Value) (reflect.Value, bool, error) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v, false, nil
		}
		inner, changed, err := t.value(v.Elem())
		if err != nil {
			return v, false, err
		}
		if r, ok := inner.Interface().(dynaml.RangeExpr); ok && v.Type() == exprType {
			n, c, err := t.node(rangeValue(r))
			if err != nil {
				return v, false, err
			}
			if c {
				inner, changed = reflect.ValueOf(n), true
			}
		}
		if !changed {
			return v, false, nil
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(inner)
		return out, true, nil
	case reflect.Slice:
		return t.slice(v)
	case reflect.Struct:
		return t.structure(v)
	}
	return v, false, nil
}

// slice transforms the elements of a slice.
func (t transformer) slice(v reflect.Value) (reflect.Value, bool, error) {
	var out reflect.Value
	for i := range v.Len() {
		el, changed, err := t.value(v.Index(i))
		if err != nil {
			return v, false, err
		}
		if changed && !out.IsValid() {
			out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(out, v)
		}
		if changed {
			out.Index(i).Set(el)
		}
	}
	if !out.IsValid() {
		return v, false, nil
	}
	return out, true, nil
}

// structure transforms the fields of an expression node, then the node.
func (t transformer) structure(v reflect.Value) (reflect.Value, bool, error) {
	out := reflect.New(v.Type()).Elem()
	out.Set(v)
	changed := false
	for i := range v.NumField() {
		f := out.Field(i)
		if !f.CanSet() {
			continue
		}
		nf, c, err := t.value(f)
		if err != nil {
			return v, false, err
		}
		if c {
			f.Set(nf)
			changed = true
		}
	}
	node, c, err := t.node(out.Interface())
	if err != nil {
		return v, false, err
	}
	if c {
		return reflect.ValueOf(node), true, nil
	}
	return out, changed, nil
}

// rangeValue marks a range where any expression may stand, as opposed to
// the range of a slice (list.[1..2]), which has its own type and stays.
type rangeValue dynaml.RangeExpr

// rewriteNodeExpr rewrites one expression node whose children are done.
func rewriteNodeExpr(e any) (any, bool, error) {
	switch e := e.(type) {
	case rangeValue:
		if e.Start == nil || e.End == nil {
			return e, false, nil
		}
		return call(probeRange, e.Start, e.End), true, nil
	case dynaml.LambdaExpr:
		if isGuarded(e.E) {
			return e, false, nil
		}
		var params []dynaml.Expression
		for _, p := range e.Parameters {
			params = append(params, dynaml.NewReferenceExpr(p.Name))
		}
		e.E = dynaml.CondExpr{C: call(probeCall, params...), T: dynaml.GroupedExpr{Expr: e.E}, F: dynaml.NilExpr{}}
		return e, true, nil
	case dynaml.CallExpr:
		return rewriteCall(e)
	case dynaml.LambdaRefExpr:
		if isCallOf(e.Source, probeLambda) {
			return e, false, nil
		}
		e.Source = call(probeLambda, e.Source)
		return e, true, nil
	}
	return e, false, nil
}

// rewriteCall refuses unavailable functions and checks eval and format.
func rewriteCall(e dynaml.CallExpr) (any, bool, error) {
	name := functionName(e)
	if what, ok := unavailable[name]; ok {
		return nil, false, fmt.Errorf("%s() is not available in lscli: its result depends on %s, "+
			"so the same input would not render the same output", name, what)
	}
	switch name {
	case "eval":
		if len(e.Arguments) == 1 && !isCallOf(e.Arguments[0], probeEval) {
			e.Arguments = []dynaml.Expression{call(probeEval, e.Arguments[0])}
			return e, true, nil
		}
	case "format":
		return dynaml.CondExpr{C: call(probeFormat, e.Arguments...), T: e, F: dynaml.NilExpr{}}, true, nil
	}
	return e, false, nil
}

// functionName is the name of the function e calls, "" for a lambda value.
func functionName(e dynaml.CallExpr) string {
	ref, ok := e.Function.(dynaml.ReferenceExpr)
	if !ok || ref.Tag != "" || len(ref.Path) != 1 {
		return ""
	}
	return ref.Path[0]
}

// call is a call of the function name.
func call(name string, args ...dynaml.Expression) dynaml.CallExpr {
	return dynaml.CallExpr{Function: dynaml.NewReferenceExpr(name), Arguments: args}
}

// isCallOf tells whether e calls the function name.
func isCallOf(e dynaml.Expression, name string) bool {
	c, ok := e.(dynaml.CallExpr)
	return ok && functionName(c) == name
}

// isGuarded tells whether a lambda body was rewritten already.
func isGuarded(e dynaml.Expression) bool {
	c, ok := e.(dynaml.CondExpr)
	return ok && isCallOf(c.C, probeCall)
}
