package simcluster

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/deployers/internal/match"
)

// Rule is a compiled RuleConfig.
type Rule struct {
	cluster, target, apiVersion, kind, namespace, name match.Glob
	labels                                             labels.Selector
	// Duration is how long the fake controller takes after each change.
	Duration time.Duration
	// Fail is the failure message; empty means the object becomes ready.
	Fail string
	// Hang means the status is never filled in.
	Hang bool
}

// Rules are compiled rules, first match wins.
type Rules []Rule

// CompileRules compiles and validates cfgs. An error names the rule as
// "rules[i]" and the field.
func CompileRules(cfgs []RuleConfig) (Rules, error) {
	return match.CompileAll(cfgs, compileRule)
}

func compileRule(c RuleConfig) (Rule, error) {
	var r Rule
	m := c.Match
	globs := []struct {
		field, pattern string
		dst            *match.Glob
	}{
		{"match.cluster", m.Cluster, &r.cluster}, {"match.target", m.Target, &r.target}, {"match.apiVersion", m.APIVersion, &r.apiVersion},
		{"match.kind", m.Kind, &r.kind}, {"match.namespace", m.Namespace, &r.namespace}, {"match.name", m.Name, &r.name},
	}
	for _, g := range globs {
		var err error
		if *g.dst, err = match.CompileGlob(g.pattern); err != nil {
			return r, fmt.Errorf("%s: %w", g.field, err)
		}
	}
	var err error
	if r.labels, err = match.Selector(m.Labels); err != nil {
		return r, fmt.Errorf("match.labels: %w", err)
	}
	if r.Duration, err = parseDuration(c.Duration); err != nil {
		return r, fmt.Errorf("duration: %w", err)
	}
	r.Fail, r.Hang = c.Fail, c.Hang
	if r.Hang && (r.Fail != "" || r.Duration > 0) {
		return r, errors.New("hang cannot be combined with fail or duration: a hanging controller never acts")
	}
	return r, nil
}

// parseDuration parses a non-negative Go duration; "" is zero.
func parseDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("invalid duration %q: want a duration like 90s or 2m", s)
	}
	return d, nil
}

// objectInfo is what rules look at.
type objectInfo struct {
	target    string // the cluster key
	gvk       schema.GroupVersionKind
	namespace string
	name      string
	labels    map[string]string
}

// find returns the first rule that selects o, or nil.
func (rs Rules) find(o objectInfo) *Rule {
	for i := range rs {
		if rs[i].matches(o) {
			return &rs[i]
		}
	}
	return nil
}

func (r *Rule) matches(o objectInfo) bool {
	_, targetName := splitKey(o.target)
	if isServerKey(o.target) {
		targetName = ""
	}
	return r.cluster.Match(o.target) && r.target.Any(o.target, targetName) &&
		r.apiVersion.Match(o.gvk.GroupVersion().String()) &&
		r.kind.Match(o.gvk.Kind) &&
		r.namespace.Match(o.namespace) &&
		r.name.Match(o.name) &&
		r.labels.Matches(labels.Set(o.labels))
}
