package spiff

import (
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/mandelsoft/spiff/dynaml"
	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"

	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/landscaper/template/budget"
)

// rangeElementCost is what an element of a range counts against the size
// limit: a Spiff node takes about so many bytes.
const rangeElementCost = 64

// lambdaEvaluate is the function whose frames count the nesting of lambda
// calls on the stack.
const lambdaEvaluate = "github.com/mandelsoft/spiff/dynaml.LambdaValue.Evaluate"

// guard gives the rewritten expressions (see rewrite.go) the functions they
// call, which spend the execution's budget:
//
//   - probeCall, at the start of every lambda call: a step, the size of
//     the arguments, and how deeply lambda calls nest (limits.SpiffDepth):
//     Spiff recurses on the Go stack, and a recursion without end would
//     overflow it, which ends the process.
//   - probeRange makes the list of a range [a..b], a step per element.
//   - probeFormat checks the widths of format(...) before it pads.
//   - probeEval and probeLambda rewrite the expression that eval(...) and
//     lambda "..." parse when the template runs.
type guard struct {
	b *budget.Budget
	// pcs is the buffer of runtime.Callers; lambdaPC memoizes which program
	// counters are in lambdaEvaluate.
	pcs      []uintptr
	lambdaPC map[uintptr]bool
	// calls counts the lambda calls, to check the depth of every
	// depthSample-th: counting the frames of a deep stack is dear.
	calls int
	// exceeded is the first limit the template exceeded: Spiff reports it
	// wrapped in a message per pending evaluation (a recursion gives one
	// per level), so Execute reports it alone.
	exceeded error
}

// fail records err, a limit exceeded, and returns it as Spiff's error.
func (g *guard) fail(err error) (any, dynaml.EvaluationInfo, bool) {
	if g.exceeded == nil {
		g.exceeded = err
	}
	info := dynaml.DefaultInfo()
	return info.Error("%v", err)
}

// explain returns the error of a Cascade that failed for the template
// parsed with the name name: when the template exceeded a limit, where
// Spiff noticed it (the first line of its message) and the limit;
// otherwise Spiff's error, an *EvalError.
func (g *guard) explain(err error, name string) error {
	if g.exceeded == nil {
		return evalError(err, name)
	}
	where := unrewriteError(sortNodes(err)).Error()
	if i := strings.Index(where, "\t*"); i >= 0 {
		where = where[:i]
	}
	return fmt.Errorf("%s: %w", strings.Join(strings.Fields(where), " "), g.exceeded)
}

// depthSample is how often the depth of lambda calls is checked: a
// recursion passes the limit by at most so many levels.
const depthSample = 8

// newGuard returns the guard of one execution spending from b.
func newGuard(b *budget.Budget) *guard {
	return &guard{b: b, lambdaPC: map[uintptr]bool{}}
}

// register adds the guard's functions to fns.
func (g *guard) register(fns spiffing.Functions) {
	fns.RegisterFunction(probeCall, g.call)
	fns.RegisterFunction(probeRange, g.rangeList)
	fns.RegisterFunction(probeFormat, g.format)
	fns.RegisterFunction(probeEval, g.rewriteString(false))
	fns.RegisterFunction(probeLambda, g.rewriteString(true))
}

// call is probeCall.
func (g *guard) call(args []any, _ dynaml.Binding) (any, dynaml.EvaluationInfo, bool) {
	if err := g.b.Step(); err != nil {
		return g.fail(err)
	}
	g.calls++
	if g.calls%depthSample == 0 {
		if err := g.checkDepth(); err != nil {
			return g.fail(err)
		}
	}
	if _, err := g.b.ValuesSize("the arguments of a lambda", args...); err != nil {
		return g.fail(err)
	}
	return true, dynaml.DefaultInfo(), true
}

// checkDepth counts the lambda calls on the stack.
func (g *guard) checkDepth() error {
	max := g.b.Limits().SpiffDepth
	if g.pcs == nil {
		g.pcs = make([]uintptr, 256)
	}
	n := runtime.Callers(2, g.pcs)
	for n == len(g.pcs) && len(g.pcs) < 1<<20 {
		g.pcs = make([]uintptr, 2*len(g.pcs))
		n = runtime.Callers(2, g.pcs)
	}
	depth := 0
	for _, pc := range g.pcs[:n] {
		in, ok := g.lambdaPC[pc]
		if !ok {
			f := runtime.FuncForPC(pc - 1)
			in = f != nil && f.Name() == lambdaEvaluate
			g.lambdaPC[pc] = in
		}
		if in {
			depth++
		}
	}
	if depth > max || n == len(g.pcs) {
		return limits.Exceeded("spiffDepth", fmt.Sprintf("lambda calls nest more than %d deep (a recursion without end?)", max), strconv.Itoa(max))
	}
	return nil
}

// rangeList is probeRange: the list start..end, descending when end is
// less than start, as Spiff's range makes it.
func (g *guard) rangeList(args []any, binding dynaml.Binding) (any, dynaml.EvaluationInfo, bool) {
	info := dynaml.DefaultInfo()
	if len(args) != 2 {
		return info.Error("range requires start and end")
	}
	start, ok1 := args[0].(int64)
	end, ok2 := args[1].(int64)
	if !ok1 || !ok2 {
		return info.Error("range start and end must be integers")
	}
	delta, n := int64(1), end-start+1
	if start > end {
		delta, n = -1, start-end+1
	}
	if err := g.b.CheckSize(fmt.Sprintf("the range [%d..%d]", start, end), n*rangeElementCost); err != nil {
		return g.fail(err)
	}
	if err := g.b.Steps(n); err != nil {
		return g.fail(err)
	}
	nodes := make([]spiffyaml.Node, 0, n)
	for i := start; i*delta <= end*delta; i += delta {
		nodes = append(nodes, dynaml.NewNode(i, binding))
	}
	return nodes, info, true
}

// formatVerb finds the widths and precisions of a format.
var formatVerb = regexp.MustCompile(`%[-+# 0]*(\d+|\*)?(?:\.(\d+|\*))?`)

// format is probeFormat: it fails when the widths and precisions of the
// format would pad the result past the size limit.
func (g *guard) format(args []any, _ dynaml.Binding) (any, dynaml.EvaluationInfo, bool) {
	if err := g.b.Step(); err != nil {
		return g.fail(err)
	}
	f, _ := first(args).(string)
	next := 1
	total := int64(len(f))
	for _, m := range formatVerb.FindAllStringSubmatch(f, -1) {
		for _, num := range m[1:] {
			switch num {
			case "":
			case "*":
				if next < len(args) {
					w, _ := args[next].(int64)
					total += max(w, -w)
				}
				next++
			default:
				w, err := strconv.ParseInt(num, 10, 64)
				if err != nil {
					w = 1 << 62
				}
				total += w
			}
		}
	}
	if err := g.b.CheckSize("the result of format", total); err != nil {
		return g.fail(err)
	}
	return true, dynaml.DefaultInfo(), true
}

// rewriteString is probeEval (lambda false) and probeLambda (true): the
// expression in the string argument, rewritten. Other values pass.
func (g *guard) rewriteString(lambda bool) dynaml.Function {
	return func(args []any, _ dynaml.Binding) (any, dynaml.EvaluationInfo, bool) {
		info := dynaml.DefaultInfo()
		s, ok := first(args).(string)
		if !ok {
			return first(args), info, true
		}
		src := s
		if lambda && !strings.HasPrefix(strings.TrimSpace(s), "lambda") {
			src = "lambda " + s
		}
		out, changed, err := rewriteSource(exprPrefix + src + exprSuffix)
		if err != nil {
			return info.Error("%v", err)
		}
		if !changed {
			return s, info, true
		}
		return strings.TrimSuffix(strings.TrimPrefix(out, exprPrefix), exprSuffix), info, true
	}
}

// first returns the first argument, or nil.
func first(args []any) any {
	if len(args) == 0 {
		return nil
	}
	return args[0]
}
