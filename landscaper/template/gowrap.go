package template

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	gotmpl "text/template"

	"github.com/lscli/lscli/landscaper/template/budget"
)

// mutatingFuncs change a map given to them in place, so that sizes known
// of it before are stale.
var mutatingFuncs = map[string]bool{
	"set": true, "unset": true, "merge": true, "mergeOverwrite": true, "mustMerge": true, "mustMergeOverwrite": true,
}

// outputFunc and stepFunc are the functions the rewritten parse tree calls
// (see rewrite.go): before every printed value, and at the start of every
// range iteration and template.
const (
	outputFunc = "lscliOutput"
	stepFunc   = "lscliStep"
)

// guardFuncs wraps every function of fm so that a call spends a step of the
// execution's budget, and so that neither its arguments nor its result may
// be larger than the size limit; functions that would make a large value
// from small arguments (repeat, until, indent, ...) are checked before they
// run. A function that exceeds a limit fails the template, naming itself.
// cur returns the execution.
func guardFuncs(fm gotmpl.FuncMap, cur func() *goRun) gotmpl.FuncMap {
	out := make(gotmpl.FuncMap, len(fm)+2)
	b := func() *budget.Budget { return cur().b }
	for name, f := range fm {
		out[name] = guard(name, f, b)
	}
	out[stepFunc] = func() (string, error) { return "", b().Step() }
	out[outputFunc] = func(v any) (any, error) {
		_, err := b().ValuesSize("the printed value", v)
		return v, err
	}
	return out
}

// guard wraps one function (see guardFuncs). The wrapper panics with its
// error, which text/template turns into "error calling NAME: ...". The
// most common signatures are wrapped without reflection, which would double
// the cost of a call.
func guard(name string, f any, cur func() *budget.Budget) any {
	switch f := f.(type) {
	case func(string) string:
		return func(a string) string { enterS(cur(), name, a); return resultS(cur(), f(a)) }
	case func(string, string) string:
		return func(a, c string) string { enterS(cur(), name, a, c); return resultS(cur(), f(a, c)) }
	case func(string, string, string) string:
		return func(a, c, d string) string { enterS(cur(), name, a, c, d); return resultS(cur(), f(a, c, d)) }
	case func(any) string:
		return func(a any) string { enter(cur(), name, a); return resultS(cur(), f(a)) }
	case func(...any) string:
		return func(a ...any) string { enter(cur(), name, a...); return resultS(cur(), f(a...)) }
	case func(...any) (string, error):
		return func(a ...any) (string, error) {
			enter(cur(), name, a...)
			out, err := f(a...)
			return resultS(cur(), out), err
		}
	case func(int, string) string:
		return func(n int, a string) string { enter(cur(), name, n, a); return resultS(cur(), f(n, a)) }
	case func(string, ...any) string:
		return func(a string, b ...any) string {
			enter(cur(), name, append([]any{a}, b...)...)
			return resultS(cur(), f(a, b...))
		}
	case func(...any) map[string]any:
		return func(a ...any) map[string]any { enter(cur(), name, a...); return result(cur(), name, f(a...)) }
	case func(...any) []any:
		return func(a ...any) []any { enter(cur(), name, a...); return result(cur(), name, f(a...)) }
	case func(any) []any:
		return func(a any) []any { enter(cur(), name, a); return result(cur(), name, f(a)) }
	case func(any) any:
		return func(a any) any { enter(cur(), name, a); return result(cur(), name, f(a)) }
	case func(any, any) bool:
		return func(a, c any) bool { enter(cur(), name, a, c); return f(a, c) }
	case func(string) bool:
		return func(a string) bool { enterS(cur(), name, a); return f(a) }
	case func(string, string) bool:
		return func(a, c string) bool { enterS(cur(), name, a, c); return f(a, c) }
	}
	return guardReflect(name, f, cur)
}

// guardReflect wraps a function of any signature.
func guardReflect(name string, f any, cur func() *budget.Budget) any {
	fv := reflect.ValueOf(f)
	ft := fv.Type()
	return reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
		enter(cur(), name, plain(ft, args)...)
		var out []reflect.Value
		if ft.IsVariadic() {
			out = fv.CallSlice(args)
		} else {
			out = fv.Call(args)
		}
		if len(out) > 0 {
			result(cur(), name, valueOf(out[0]))
		}
		return out
	}).Interface()
}

// enterS is enter for string arguments.
func enterS(b *budget.Budget, name string, args ...string) {
	if _, ok := growth[name]; ok {
		plainArgs := make([]any, len(args))
		for i, a := range args {
			plainArgs[i] = a
		}
		enter(b, name, plainArgs...)
		return
	}
	if err := b.Step(); err != nil {
		panic(err)
	}
	var n int64
	for _, a := range args {
		n += int64(len(a))
	}
	if err := b.CheckSize("the arguments", n); err != nil {
		panic(err)
	}
}

// enter spends a step for a call of name and checks its arguments; on
// failure it panics with the error.
func enter(b *budget.Budget, name string, args ...any) {
	if err := b.Step(); err != nil {
		panic(err)
	}
	if grow, ok := growth[name]; ok {
		if err := b.CheckSize("the result", grow(args)); err != nil {
			panic(err)
		}
	}
	if _, err := b.ValuesSize("the arguments", args...); err != nil {
		panic(err)
	}
}

// result checks the result v of a call of name and returns it; on failure
// it panics with the error.
func result[T any](b *budget.Budget, name string, v T) T {
	if mutatingFuncs[name] {
		b.ForgetSizes()
	}
	if _, err := b.ValuesSize("the result", v); err != nil {
		panic(err)
	}
	return v
}

// resultS is result for a string, which no function changes in place.
func resultS(b *budget.Budget, s string) string {
	if err := b.CheckSize("the result", int64(len(s))); err != nil {
		panic(err)
	}
	return s
}

// plain returns the arguments of a call of a function of type ft as plain
// values, with the slice of a variadic one spread out.
func plain(ft reflect.Type, args []reflect.Value) []any {
	out := make([]any, 0, len(args))
	for i, a := range args {
		if ft.IsVariadic() && i == len(args)-1 {
			for j := range a.Len() {
				out = append(out, valueOf(a.Index(j)))
			}
			continue
		}
		out = append(out, valueOf(a))
	}
	return out
}

// valueOf returns v as a plain value; nil when it has none.
func valueOf(v reflect.Value) any {
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	return v.Interface()
}

// growth estimates, before the call, how big the result of functions that
// make large values from small arguments would be.
var growth = map[string]func(args []any) int64{
	"repeat": func(a []any) int64 { return intArg(a, 0) * int64(len(strArg(a, 1))) },
	"until":  func(a []any) int64 { return abs(intArg(a, 0)) * budget.ElementCost },
	"untilStep": func(a []any) int64 {
		return abs(intArg(a, 1)-intArg(a, 0)) / max(abs(intArg(a, 2)), 1) * budget.ElementCost
	},
	"seq":     seqGrowth,
	"indent":  func(a []any) int64 { return indentGrowth(intArg(a, 0), strArg(a, 1)) },
	"nindent": func(a []any) int64 { return indentGrowth(intArg(a, 0), strArg(a, 1)) + 1 },
	"replace": func(a []any) int64 { return replaceGrowth(strArg(a, 0), strArg(a, 1), strArg(a, 2)) },
	"wrapWith": func(a []any) int64 {
		s := strArg(a, 2)
		return int64(len(s)) + int64(len(s))/max(intArg(a, 0), 1)*int64(len(strArg(a, 1)))
	},
	"join":                       joinGrowth,
	"printf":                     printfGrowth,
	"regexReplaceAll":            regexGrowth,
	"mustRegexReplaceAll":        regexGrowth,
	"regexReplaceAllLiteral":     regexGrowth,
	"mustRegexReplaceAllLiteral": regexGrowth,
}

// intArg returns argument i as an integer (0 when it is none).
func intArg(a []any, i int) int64 {
	if i >= len(a) || a[i] == nil {
		return 0
	}
	v := reflect.Indirect(reflect.ValueOf(a[i]))
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(min(v.Uint(), 1<<62))
	case reflect.Float32, reflect.Float64:
		return int64(min(max(v.Float(), -1<<62), 1<<62))
	}
	return 0
}

// strArg returns argument i as a string ("" when it is none).
func strArg(a []any, i int) string {
	if i >= len(a) {
		return ""
	}
	s, _ := a[i].(string)
	return s
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// seqGrowth estimates sprig's seq: up to 11 characters per number.
func seqGrowth(a []any) int64 {
	var start, end, step int64 = 1, 0, 1
	switch len(a) {
	case 0:
		return 0
	case 1:
		end = intArg(a, 0)
	case 2:
		start, end = intArg(a, 0), intArg(a, 1)
	default:
		start, step, end = intArg(a, 0), intArg(a, 1), intArg(a, 2)
	}
	return (abs(end-start)/max(abs(step), 1) + 1) * 21
}

// indentGrowth estimates indent: n spaces more on every line.
func indentGrowth(n int64, s string) int64 {
	return int64(len(s)) + abs(n)*int64(strings.Count(s, "\n")+1)
}

// replaceGrowth estimates strings.Replace(s, old, new, -1).
func replaceGrowth(old, new, s string) int64 {
	n := int64(strings.Count(s, old))
	return int64(len(s)) + n*int64(len(new))
}

// joinGrowth estimates join: the separator between every element.
func joinGrowth(a []any) int64 {
	if len(a) < 2 || a[1] == nil {
		return 0
	}
	v := reflect.ValueOf(a[1])
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return 0
	}
	return int64(v.Len()) * int64(len(strArg(a, 0))+budget.ElementCost)
}

// printfVerb finds the widths and precisions of a format.
var printfVerb = regexp.MustCompile(`%[-+# 0]*(\d+|\*)?(?:\.(\d+|\*))?`)

// printfGrowth estimates printf: the widths and precisions it pads to
// (a "*" takes its number from the arguments).
func printfGrowth(a []any) int64 {
	format := strArg(a, 0)
	next := 1
	var n int64
	for _, m := range printfVerb.FindAllStringSubmatch(format, -1) {
		for _, num := range m[1:] {
			switch num {
			case "":
			case "*":
				n += abs(intArg(a, next))
				next++
			default:
				w, err := strconv.ParseInt(num, 10, 64)
				if err != nil {
					w = 1 << 62
				}
				n += min(w, 1<<62)
			}
		}
	}
	return n + int64(len(format))
}

// regexGrowth estimates the regexReplaceAll functions (regex, s, repl):
// every match replaced by repl, whose $n may each repeat all of s.
func regexGrowth(a []any) int64 {
	re, err := regexp.Compile(strArg(a, 0))
	if err != nil {
		return 0
	}
	s, repl := strArg(a, 1), strArg(a, 2)
	matches := int64(len(re.FindAllStringIndex(s, -1)))
	refs := int64(strings.Count(repl, "$"))
	return int64(len(s)) + matches*(int64(len(repl))+refs*int64(len(s)))
}
