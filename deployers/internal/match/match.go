package match

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
)

// Glob is a compiled name pattern: '*' matches any run of characters
// (including '/' and '.'), '?' matches one character, everything else
// matches itself. The zero Glob matches everything.
type Glob struct {
	re *regexp.Regexp
}

// CompileGlob compiles pattern. An empty pattern gives the zero Glob.
func CompileGlob(pattern string) (Glob, error) {
	if pattern == "" {
		return Glob{}, nil
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range pattern {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return Glob{}, fmt.Errorf("invalid pattern %q: %w", pattern, err)
	}
	return Glob{re: re}, nil
}

// Match reports whether s matches g.
func (g Glob) Match(s string) bool {
	return g.re == nil || g.re.MatchString(s)
}

// Any reports whether any of ss matches g.
func (g Glob) Any(ss ...string) bool {
	for _, s := range ss {
		if g.Match(s) {
			return true
		}
	}
	return g.re == nil
}

// Selector compiles a label selector in kubectl syntax, e.g.
// "tier=web,env in (dev,qa),!legacy". An empty selector matches everything.
func Selector(s string) (labels.Selector, error) {
	sel, err := labels.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("invalid label selector %q: %w", s, err)
	}
	return sel, nil
}

// CompileAll compiles every config with compile, in order. An error names
// the config as "rules[i]".
func CompileAll[C, R any](cfgs []C, compile func(C) (R, error)) ([]R, error) {
	out := make([]R, 0, len(cfgs))
	for i, c := range cfgs {
		r, err := compile(c)
		if err != nil {
			return nil, fmt.Errorf("rules[%d]: %w", i, err)
		}
		out = append(out, r)
	}
	return out, nil
}
