package fakecluster

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// UpdateCheck allows the update of stored to updated (nil), or refuses it
// with the error the API server returns, as a validating admission webhook
// does. It must not change either object.
type UpdateCheck func(stored, updated Object) error

// AddUpdateCheck makes every later Update of an object of kind gk pass
// check, as kube-apiserver calls the validating webhooks registered for an
// update: a refused update changes nothing and returns check's error. An
// update that changes nothing is not checked.
func (c *Cluster) AddUpdateCheck(gk schema.GroupKind, check UpdateCheck) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.updateChecks == nil {
		c.updateChecks = map[schema.GroupKind][]UpdateCheck{}
	}
	c.updateChecks[gk] = append(c.updateChecks[gk], check)
}

// admitUpdateLocked runs the update checks of gk.
func (c *Cluster) admitUpdateLocked(gk schema.GroupKind, stored, updated Object) error {
	for _, check := range c.updateChecks[gk] {
		if err := check(stored, updated); err != nil {
			return err
		}
	}
	return nil
}

// cloneUpdateChecks returns a copy of checks that a fork can add to.
func cloneUpdateChecks(checks map[schema.GroupKind][]UpdateCheck) map[schema.GroupKind][]UpdateCheck {
	out := maps.Clone(checks)
	for gk, cs := range out {
		out[gk] = slices.Clone(cs)
	}
	return out
}
