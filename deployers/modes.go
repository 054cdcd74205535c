package deployers

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lscli/lscli/deployers/deployer"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// Mode is how the deploy items of a type are served.
type Mode string

// The modes of --deployer TYPE=MODE.
const (
	// ModeFake simulates the deployer (Fake, with rules). For the mock type
	// it is Landscaper's mock deployer itself.
	ModeFake Mode = "fake"
	// ModeReal runs the real deployer, from the Registry.
	ModeReal Mode = "real"
	// ModeNone serves nothing: the items hit the pickup timeout.
	ModeNone Mode = "none"
)

// Builder builds a real deployer that reaches the clusters behind Targets
// through clients.
type Builder func(clients deployer.ClusterClients) (deployer.Deployer, error)

// Registry holds the real deployers, by type. Adding one is one entry.
type Registry map[lsv1alpha1.DeployItemType]Builder

// Build builds the real deployer for typ. A type without one is an error
// saying so.
func (r Registry) Build(typ lsv1alpha1.DeployItemType, clients deployer.ClusterClients) (deployer.Deployer, error) {
	if err := r.Check(typ); err != nil {
		return nil, err
	}
	d, err := r[typ](clients)
	if err != nil {
		return nil, fmt.Errorf("build the real deployer for %s: %w", typ, err)
	}
	return d, nil
}

// Check returns an error saying so when r has no real deployer for typ.
func (r Registry) Check(typ lsv1alpha1.DeployItemType) error {
	if _, ok := r[typ]; !ok {
		return fmt.Errorf("the real deployer for %s is not available (real deployers: %s)", typ, r.types())
	}
	return nil
}

// types lists the registered types, sorted.
func (r Registry) types() string {
	var out []string
	for t := range r {
		out = append(out, string(t))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// Setup says how to serve each deploy item type.
type Setup struct {
	// Modes are the modes the user chose, by type. A type without one runs
	// its real deployer when Real has it (the mock, manifest and helm types),
	// else a fake one.
	Modes map[lsv1alpha1.DeployItemType]Mode
	// Real are the real deployers available.
	Real Registry
	// Rules decide fake outcomes and which items are never picked up.
	Rules Rules
	// Clients reach the clusters behind Targets, for real deployers.
	Clients deployer.ClusterClients
}

// Build returns the deployers by type and the fallback for the other types,
// for a Framework. A type set to real without a real deployer is an error.
func (s Setup) Build() (map[lsv1alpha1.DeployItemType]deployer.Deployer, deployer.Deployer, error) {
	table := map[lsv1alpha1.DeployItemType]deployer.Deployer{}
	for typ := range s.Real {
		if _, chosen := s.Modes[typ]; !chosen {
			s.Modes = withMode(s.Modes, typ, ModeReal)
		}
	}
	types := make([]lsv1alpha1.DeployItemType, 0, len(s.Modes))
	for typ := range s.Modes {
		types = append(types, typ)
	}
	slices.Sort(types) // the first error does not depend on map order
	for _, typ := range types {
		d, err := s.deployer(typ, s.Modes[typ])
		if err != nil {
			return nil, nil, err
		}
		table[typ] = d
	}
	return table, Fake{Rules: s.Rules}, nil
}

// withMode returns a copy of m with typ set to mode.
func withMode(m map[lsv1alpha1.DeployItemType]Mode, typ lsv1alpha1.DeployItemType, mode Mode) map[lsv1alpha1.DeployItemType]Mode {
	out := make(map[lsv1alpha1.DeployItemType]Mode, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	out[typ] = mode
	return out
}

// deployer builds the deployer for typ in mode; nil for none.
func (s Setup) deployer(typ lsv1alpha1.DeployItemType, mode Mode) (deployer.Deployer, error) {
	switch {
	case mode == ModeNone:
		return nil, nil
	case mode == ModeFake && typ != MockType:
		return Fake{Rules: s.Rules}, nil
	case mode == ModeFake, mode == ModeReal:
		d, err := s.Real.Build(typ, s.Clients)
		if err != nil {
			return nil, err
		}
		return withPickup{Deployer: d, rules: s.Rules}, nil
	}
	return nil, fmt.Errorf("invalid deployer mode %q for type %s (allowed: fake, real, none)", mode, typ)
}

// withPickup lets rules keep a real deployer away from items (pickup:
// never). It keeps the deployer's traits.
type withPickup struct {
	deployer.Deployer
	rules Rules
}

// PicksUp is false for items a rule keeps from being picked up.
func (w withPickup) PicksUp(item *lsv1alpha1.DeployItem) bool {
	p, ok := w.Deployer.(deployer.Picker)
	return w.rules.PicksUp(item) && (!ok || p.PicksUp(item))
}

// Traits are the wrapped deployer's.
func (w withPickup) Traits() deployer.Traits { return deployer.TraitsOf(w.Deployer) }
