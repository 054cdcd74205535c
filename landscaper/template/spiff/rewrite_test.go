package spiff

import (
	"testing"

	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
)

// TestRewriteKeepsMeaning: expressions render the same with and without
// lscli's guards (see rewrite.go).
func TestRewriteKeepsMeaning(t *testing.T) {
	exprs := map[string]string{
		"lambda":      `(( |x|->x * 2 ))`,
		"call":        `(( .lambda(3) ))`,
		"defaults":    `(( (|x,y=10|->x + y)(1) ))`,
		"curry":       `(( .add*(1) ))`,
		"add":         `(( |a,b|->a + b ))`,
		"curried":     `(( .curry(41) ))`,
		"recursion":   `(( |n|->n <= 1 ? 1 : n * _(n - 1) ))`,
		"fact":        `(( .recursion(10) ))`,
		"map":         `(( map[[1..4]|x|->x * x] ))`,
		"mapmap":      `(( map{{"a"=1, "b"=2}|k,v|->k v} ))`,
		"select":      `(( select[[1..6]|x|->x % 2 == 0] ))`,
		"sum":         `(( sum[[1..10]|0|s,e|->s + e] ))`,
		"down":        `(( [5..2] ))`,
		"slice":       `(( [1..9].[2..4] ))`,
		"open slice":  `(( [1..5].[3..] ))`,
		"projection":  `(( [{"n"=1}, {"n"=2}].[*].n ))`,
		"index":       `(( [1..5].[1] ))`,
		"cond":        `(( 1 < 2 ? "yes" : "no" ))`,
		"concat":      `(( "a" "-" 1 ))`,
		"default":     `(( nope || "fallback" ))`,
		"format":      `(( format("%s=%03d", "x", 7) ))`,
		"eval":        `(( eval("[1..3]") ))`,
		"lambda ref":  `(( lambda "|x|->x + 1" ))`,
		"use ref":     `(( .["lambda ref"](1) ))`,
		"join":        `(( join(",", map[[1..3]|x|->x]) ))`,
		"nested":      `(( map[[1..3]|x|->map[[1..x]|y|->x * y]] ))`,
		"length":      `(( length([1..1000]) ))`,
		"not":         `(( !(1 > 2) ))`,
		"list concat": `(( [1..2] [5..6] ))`,
	}
	tmpl := map[string]any{}
	for k, v := range exprs {
		tmpl[k] = v
	}
	render := func(guarded bool) string {
		t.Helper()
		node := spiffyaml.NewNode(tmpl, "t")
		raw, err := spiffyaml.Marshal(node)
		if err != nil {
			t.Fatal(err)
		}
		if guarded {
			res, err := Execute(Request{Name: "t", Template: raw})
			if err != nil {
				t.Fatal(err)
			}
			return string(res.Output)
		}
		parsed, _ := spiffyaml.Unmarshal("t", raw)
		res, err := spiffing.Plain().WithMode(0).Cascade(parsed, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := spiffyaml.Marshal(res)
		return string(out)
	}
	plain, guarded := render(false), render(true)
	if testing.Verbose() {
		t.Log(guarded)
	}
	if plain != guarded {
		t.Errorf("guarded output differs.\nplain:\n%s\nguarded:\n%s", plain, guarded)
	}
}
