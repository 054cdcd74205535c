package deployers

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lscli/lscli/deployers/internal/match"
)

// Rule is a compiled RuleConfig.
type Rule struct {
	typ, name, namespace match.Glob
	labels               labels.Selector
	// NeverPickedUp keeps every deployer away from the item.
	NeverPickedUp bool
	// Reconcile and Delete are how the item's reconcile and deletion go.
	Reconcile, Delete Step
	// Exports is the JSON the item exports on success; nil exports nothing.
	Exports []byte
	// ProgressingTimeout overrides the default of the item's type when set.
	ProgressingTimeout *bool
}

// Step is a compiled StepConfig.
type Step struct {
	Duration time.Duration
	Fail     string
	Hang     bool
}

// Rules are compiled rules; the first that matches an item decides.
type Rules []Rule

// CompileRules compiles and validates cfgs. An error names the rule as
// "rules[i]" and the field.
func CompileRules(cfgs []RuleConfig) (Rules, error) {
	return match.CompileAll(cfgs, compileRule)
}

func compileRule(c RuleConfig) (Rule, error) {
	r := Rule{ProgressingTimeout: c.ProgressingTimeout}
	if err := r.compileMatch(c.Match); err != nil {
		return r, err
	}
	switch c.Pickup {
	case "":
	case "never":
		r.NeverPickedUp = true
	default:
		return r, fmt.Errorf("pickup: invalid value %q (allowed: never)", c.Pickup)
	}
	var err error
	if r.Reconcile, err = compileStep(c.Reconcile); err != nil {
		return r, fmt.Errorf("reconcile: %w", err)
	}
	if r.Delete, err = compileStep(c.Delete); err != nil {
		return r, fmt.Errorf("delete: %w", err)
	}
	if len(c.Exports) > 0 {
		if r.Reconcile.Fail != "" || r.Reconcile.Hang {
			return r, errors.New("exports: an item whose reconcile fails or hangs exports nothing")
		}
		if !json.Valid(c.Exports) {
			return r, errors.New("exports: not a valid value")
		}
		r.Exports = c.Exports
	}
	return r, checkMock(c)
}

func (r *Rule) compileMatch(m MatchConfig) error {
	var err error
	for _, g := range []struct {
		field, pattern string
		dst            *match.Glob
	}{{"match.type", m.Type, &r.typ}, {"match.name", m.Name, &r.name}, {"match.namespace", m.Namespace, &r.namespace}} {
		if *g.dst, err = match.CompileGlob(g.pattern); err != nil {
			return fmt.Errorf("%s: %w", g.field, err)
		}
	}
	if r.labels, err = match.Selector(m.Labels); err != nil {
		return fmt.Errorf("match.labels: %w", err)
	}
	return nil
}

func compileStep(c StepConfig) (Step, error) {
	s := Step{Fail: c.Fail, Hang: c.Hang}
	if c.Duration != "" {
		d, err := time.ParseDuration(c.Duration)
		if err != nil || d < 0 {
			return s, fmt.Errorf("duration: invalid duration %q: want a duration like 90s or 3m", c.Duration)
		}
		s.Duration = d
	}
	if s.Hang && (s.Fail != "" || s.Duration > 0) {
		return s, errors.New("hang cannot be combined with fail or duration: a hanging item never ends")
	}
	return s, nil
}

// checkMock rejects outcome fields in a rule written for mock items: the mock
// deployer takes its outcome from the item's configuration.
func checkMock(c RuleConfig) error {
	if c.Match.Type != string(MockType) {
		return nil
	}
	if c.Reconcile != (StepConfig{}) || c.Delete != (StepConfig{}) || len(c.Exports) > 0 || c.ProgressingTimeout != nil {
		return fmt.Errorf("match.type: %s items get their outcome from their config (phase, export); a rule can only keep them from being picked up (pickup: never)", MockType)
	}
	return nil
}

// Find returns the first rule that selects di, or nil.
func (rs Rules) Find(di *lsv1alpha1.DeployItem) *Rule {
	if i := rs.Index(di); i >= 0 {
		return &rs[i]
	}
	return nil
}

// Index returns the index of the first rule that selects di, or -1.
func (rs Rules) Index(di *lsv1alpha1.DeployItem) int {
	for i := range rs {
		if rs[i].matches(di) {
			return i
		}
	}
	return -1
}

func (r *Rule) matches(di *lsv1alpha1.DeployItem) bool {
	return r.typ.Match(string(di.Spec.Type)) &&
		r.name.Any(di.Name, di.Labels[lsv1alpha1.ExecutionManagedNameLabel]) &&
		r.namespace.Match(di.Namespace) &&
		r.labels.Matches(labels.Set(di.Labels))
}

// PicksUp reports whether a deployer may pick di up: false when the first
// rule that selects it says pickup: never.
func (rs Rules) PicksUp(di *lsv1alpha1.DeployItem) bool {
	r := rs.Find(di)
	return r == nil || !r.NeverPickedUp
}
