package spiff

import (
	"regexp"
	"strings"

	"github.com/mandelsoft/spiff/dynaml"
)

// unrewriteSource undoes rewriteSource, for the expressions Spiff writes
// back into its output and state (lambda values, unevaluated expressions):
// they show what the template said.
func unrewriteSource(s string) (string, bool, error) {
	if !strings.Contains(s, probePrefix) {
		return s, false, nil
	}
	return transformSource(s, unrewriteNodeExpr)
}

// unrewriteNodeExpr undoes rewriteNodeExpr on one node.
func unrewriteNodeExpr(e any) (any, bool, error) {
	switch e := e.(type) {
	case dynaml.CondExpr:
		if isCallOf(e.C, probeCall) {
			if g, ok := e.T.(dynaml.GroupedExpr); ok {
				return g.Expr, true, nil
			}
		}
		if isCallOf(e.C, probeFormat) {
			return e.T, true, nil
		}
	case dynaml.CallExpr:
		switch functionName(e) {
		case probeRange:
			if len(e.Arguments) == 2 {
				return dynaml.RangeExpr{Start: e.Arguments[0], End: e.Arguments[1]}, true, nil
			}
		case "eval":
			if len(e.Arguments) == 1 && isCallOf(e.Arguments[0], probeEval) {
				e.Arguments = e.Arguments[0].(dynaml.CallExpr).Arguments
				return e, true, nil
			}
		}
	case dynaml.LambdaRefExpr:
		if isCallOf(e.Source, probeLambda) {
			if args := e.Source.(dynaml.CallExpr).Arguments; len(args) == 1 {
				e.Source = args[0]
				return e, true, nil
			}
		}
	}
	return e, false, nil
}

// spiffExpr finds the expressions in Spiff's messages.
var spiffExpr = regexp.MustCompile(`\(\( .*? \)\)`)

// Textual forms of guards in Spiff's messages, where an expression is
// not between (( and )): a lambda's value prints as lambda|x|->BODY.
var (
	guardedBody  = regexp.MustCompile(regexp.QuoteMeta(probeCall) + `\([^()]*\) \? \( `)
	guardedRange = regexp.MustCompile(regexp.QuoteMeta(probeRange) + `\(([^(),]*), ([^(),]*)\)`)
)

// unrewriteError returns err with the expressions its message shows as the
// template had them, not as lscli guarded them.
func unrewriteError(err error) error {
	msg := err.Error()
	if !strings.Contains(msg, probePrefix) {
		return err
	}
	msg = spiffExpr.ReplaceAllStringFunc(msg, func(e string) string {
		out, _, uerr := unrewriteSource(e)
		if uerr != nil {
			return e
		}
		return out
	})
	for {
		loc := guardedBody.FindStringIndex(msg)
		if loc == nil {
			break
		}
		rest := msg[loc[1]:]
		if end := strings.Index(rest, " ) : nil"); end >= 0 {
			rest = rest[:end] + rest[end+len(" ) : nil"):]
		}
		msg = msg[:loc[0]] + rest
	}
	msg = guardedRange.ReplaceAllString(msg, "[$1..$2]")
	return &messageError{msg: msg, err: err}
}

// messageError is err with another message.
type messageError struct {
	msg string
	err error
}

func (e *messageError) Error() string { return e.msg }
func (e *messageError) Unwrap() error { return e.err }
