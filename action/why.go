package action

import (
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/timeout"
	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/engine/deployitem"
	"github.com/lscli/lscli/reconcile"
)

// Pending is the work a simulation has left when a run stops: the virtual
// time, the timers, and the fake rules, from which an assessment says when
// an unfinished deploy item moves on and why. The zero value knows nothing
// pending.
type Pending struct {
	// Now is the virtual time the run stopped at.
	Now time.Time
	// Timers are the pending wake-ups (reconcile.Loop.Timers).
	Timers []reconcile.Timer
	// Rules are the fake deployer's rules.
	Rules deployers.Rules
	// Explained has lscli's texts of the run's errors whose status is in
	// Landscaper's words (see reconcile.Explain); may be nil. Hints that
	// would only say the same give way to them.
	Explained *reconcile.Explanations
	// Clusters answers questions about the simulated clusters (what a
	// workload waits for, CRD versions not served); may be nil.
	Clusters SimulatedClusters
	// PickupTimeout is the deploy item pickup timeout of the run (zero: the
	// default, negative: none).
	PickupTimeout time.Duration
}

// pending is the pending work of the session's simulation.
func (ss *session) pending() Pending {
	p := Pending{Now: ss.engine.Config().Clock.Now(), Timers: ss.engine.Timers(), Rules: ss.cfg.Deployers.Rules,
		Explained: ss.engine.Explanations(), PickupTimeout: ss.cfg.PickupTimeout}
	if ss.clusters != nil {
		p.Clusters = ss.clusters
	}
	return p
}

// deadline returns the earliest timer of controller for key that will act
// by itself (a timeout, a simulated duration).
func (p Pending) deadline(controller string, key types.NamespacedName) (time.Time, bool) {
	var due time.Time
	for _, t := range p.Timers {
		if t.Controller == controller && t.Namespace == key.Namespace && t.Name == key.Name && t.Deadline &&
			(due.IsZero() || t.Due.Before(due)) {
			due = t.Due
		}
	}
	return due, !due.IsZero()
}

// at says when t is: "at 2025-01-01T00:05:00Z, in 3m0s".
func (p Pending) at(t time.Time) string {
	return fmt.Sprintf("at %s, in %s", t.UTC().Format(time.RFC3339), t.Sub(p.Now))
}

// whyDeployItem says why di has not finished its job, and what ends it.
func (p Pending) whyDeployItem(di *lsv1alpha1.DeployItem) string {
	st := di.Status
	key := types.NamespacedName{Namespace: di.Namespace, Name: di.Name}
	phase := orNone(string(st.Phase))
	switch {
	case st.LastError != nil:
		return fmt.Sprintf("phase %s, last error: %s", phase, errorMessage(st.LastError))
	case !deployitem.PickedUp(di):
		return p.whyNotPickedUp(di, key)
	}
	due, ok := p.deadline(engine.DeployerController, key)
	if !ok {
		return p.neverEnds(di, phase) + "; only an interrupt ends it"
	}
	if limit, ok := timeout.Deadline(di); ok && limit.Equal(due) {
		return fmt.Sprintf("the deployer reports phase %s; its progressing timeout (%s) fails it %s", phase, timeoutOf(di), p.at(due))
	}
	if r := p.Rules.Find(di); r != nil && p.step(r, di).Duration > 0 {
		return fmt.Sprintf("a fake rule makes it take %s: it is done %s", p.step(r, di).Duration, p.at(due))
	}
	return fmt.Sprintf("the deployer reports phase %s and acts on it again %s", phase, p.at(due))
}

// whyNotPickedUp says why no deployer has picked di up, and when the pickup
// timeout fails it. Work that is ready (a run stopped by --max-steps before
// the controllers looked at the item) is due now, but the deploy item
// controller then only asks to be woken at the timeout: that is when it fails.
func (p Pending) whyNotPickedUp(di *lsv1alpha1.DeployItem, key types.NamespacedName) string {
	msg := "no deployer has picked it up"
	if due, ok := p.deadline(engine.DeployerController, key); ok && !due.After(p.Now) {
		msg += " yet (the run stopped before the deployers looked at it)"
	}
	due, ok := p.deadline(engine.DeployItemController, key)
	if !ok {
		return msg
	}
	if limit, wake, lok := deployitem.PickupLimit(di, p.PickupTimeout); lok && due.Before(limit) {
		due = wake
	}
	return msg + "; the pickup timeout fails it " + p.at(due)
}

// neverEnds says why nothing will end di's job in phase by itself.
func (p Pending) neverEnds(di *lsv1alpha1.DeployItem, phase string) string {
	if r := p.Rules.Find(di); r != nil && p.step(r, di).Hang {
		return fmt.Sprintf("a fake rule makes it hang in phase %s and no timeout applies", phase)
	}
	if di.Spec.Type == deployers.MockType {
		return fmt.Sprintf("the mock deployer keeps it in phase %s, as its configuration says", phase)
	}
	return fmt.Sprintf("the deployer reports phase %s and polls it again and again, with no timeout", phase)
}

// step is the rule's step for what di is doing: deletion or reconcile.
func (p Pending) step(r *deployers.Rule, di *lsv1alpha1.DeployItem) deployers.Step {
	if di.DeletionTimestamp != nil {
		return r.Delete
	}
	return r.Reconcile
}

// timeoutOf is di's progressing timeout as set, or the default.
func timeoutOf(di *lsv1alpha1.DeployItem) string {
	if di.Spec.Timeout != nil {
		return di.Spec.Timeout.Duration.String()
	}
	return timeout.Default.String() + ", the default"
}
