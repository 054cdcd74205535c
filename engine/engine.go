package engine

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/deployitem"
	"github.com/lscli/lscli/engine/execution"
	"github.com/lscli/lscli/engine/installation"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/template"
	"github.com/lscli/lscli/landscaper/webhook"
	"github.com/lscli/lscli/reconcile"
	"github.com/lscli/lscli/state"
)

// Engine runs the controllers over the in-memory API server until nothing is
// left to do. It is single-threaded: one reconcile runs at a time, and virtual
// time only moves when no work is ready.
type Engine struct {
	cfg      Config
	loop     *reconcile.Loop
	timeline timeline
	scratch  []state.Event // the entries of one change, reused
	// explained has lscli's texts of the errors whose status is in
	// Landscaper's words (see reconcile.Explain).
	explained reconcile.Explanations
	// warned has lscli's warnings about the input (see reconcile.Warn).
	warned reconcile.Warnings
}

// New returns an engine over cfg.Cluster with the installation, execution and
// deploy item controllers, plus cfg.Deployer when set. It watches the cluster:
// every change is recorded in the timeline and wakes the controllers that care.
func New(cfg Config) *Engine {
	cfg.defaults()
	e := &Engine{cfg: cfg, loop: reconcile.NewLoop(cfg.Clock, cfg.Rand, cfg.Log)}
	c := cfg.Cluster
	e.loop.Register(InstallationController, reconcile.AsReconciler(c, installation.New(installation.Options{
		Cluster: c, Clock: cfg.Clock, IDs: cfg.IDs, Blueprints: cfg.Blueprints, Components: cfg.Components})))
	removed := shoots{}
	for _, s := range cfg.RemovedShoots {
		removed[s] = true
	}
	e.loop.Register(ExecutionController, reconcile.AsReconciler(c, execution.New(execution.Options{Cluster: c, Clock: cfg.Clock, Shoots: removed})))
	e.loop.Register(DeployItemController, reconcile.AsReconciler(c, deployitem.New(deployitem.Options{
		Cluster: c, Clock: cfg.Clock, PickupTimeout: cfg.Timeouts.Pickup})))
	e.registerStandalone()
	if cfg.Deployer != nil {
		e.loop.Register(DeployerController, cfg.Deployer)
	}
	webhook.Register(c)
	if err := installation.AddIndexes(c); err != nil {
		panic(fmt.Sprintf("register engine indexes: %v", err)) // a second New on the same cluster is a programmer error
	}
	c.Watch(e.onChange)
	return e
}

// Config returns the engine's configuration with defaults filled in.
func (e *Engine) Config() Config { return e.cfg }

// Events returns the timeline, oldest first.
func (e *Engine) Events() []state.Event { return e.timeline.all() }

// Timers returns the pending work: ready work as due now, then the timers,
// earliest first.
func (e *Engine) Timers() []reconcile.Timer { return e.loop.Timers() }

// Enqueue asks controller to reconcile the object named key.
func (e *Engine) Enqueue(controller string, key types.NamespacedName) {
	e.loop.Enqueue(controller, key)
}

// Schedule asks controller to reconcile the object named key at the
// virtual time at, unless it is due earlier (see reconcile.Loop.Schedule).
func (e *Engine) Schedule(controller string, key types.NamespacedName, at time.Time) {
	e.loop.Schedule(controller, key, at)
}

// Scheduled returns the pending scheduled timers (automatic reconciles),
// earliest first.
func (e *Engine) Scheduled() []reconcile.Timer {
	var out []reconcile.Timer
	for _, t := range e.loop.Timers() {
		if t.Scheduled {
			out = append(out, t)
		}
	}
	return out
}

// Run runs the controllers until nothing is left to do or a bound of opts is
// reached (see reconcile.Loop.Run). The run records its explanations (see
// Explanations).
//
// Templates rendered during the run see the virtual clock and the seed (see
// template.Environment), within cfg.Limits, and reach cfg.Clusters.
func (e *Engine) Run(ctx context.Context, opts reconcile.RunOptions) (reconcile.RunResult, error) {
	ctx = template.WithEnvironment(ctx, template.Environment{Clock: e.cfg.Clock.Now, Seed: e.cfg.IDs.Seed(), Limits: e.cfg.Limits, Clusters: e.cfg.Clusters})
	ctx = reconcile.WithExplanations(ctx, &e.explained)
	ctx = reconcile.WithWarnings(ctx, &e.warned)
	return e.loop.Run(ctx, opts)
}

// Explanations returns lscli's own texts of the errors that failed steps of
// the engine's runs where the objects' status has Landscaper's words for
// them (see reconcile.Explain). They are not part of the state.
func (e *Engine) Explanations() *reconcile.Explanations { return &e.explained }

// Warnings returns lscli's warnings about the input that the engine's runs
// found, each once, in the order found (see reconcile.Warnings). They are
// not part of the state.
func (e *Engine) Warnings() []string { return e.warned.All() }

// onChange records a cluster change in the timeline and wakes the controllers
// that watch it: the object's own controllers and its controlling owner's.
func (e *Engine) onChange(ev fakecluster.Event) {
	e.loop.Changed()
	e.scratch = appendTimelineEntries(e.scratch[:0], e.cfg.Clock.Now(), ev)
	e.timeline.add(e.scratch)
	obj := ev.New
	key := types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	e.wakeStandalone(ev, key)
	switch ev.Kind {
	case "Installation":
		e.Enqueue(InstallationController, key)
	case "Execution":
		e.Enqueue(ExecutionController, key)
	case "DeployItem":
		e.Enqueue(DeployItemController, key)
		e.Enqueue(DeployerController, key)
	}
	if owner := fakecluster.ControllerOf(obj); owner != nil {
		ownerKey := types.NamespacedName{Namespace: obj.GetNamespace(), Name: owner.Name}
		switch owner.Kind {
		case "Installation":
			e.Enqueue(InstallationController, ownerKey)
		case "Execution":
			e.Enqueue(ExecutionController, ownerKey)
		}
	}
}
