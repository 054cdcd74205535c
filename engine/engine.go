package engine

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// Engine runs the controllers over the in-memory API server until nothing is
// left to do. It is single-threaded: one reconcile runs at a time, and virtual
// time only moves when no work is ready.
type Engine struct {
	cfg         Config
	queue       *queue
	controllers map[string]Reconciler
	events      []Event
	// failures counts consecutive errors per item, for growing retry intervals.
	failures map[item]int
	// idle marks items whose last run changed nothing and asked only for a re-poll.
	idle map[item]bool
	// changes counts watch events, so a step can tell whether it wrote anything.
	changes uint64
}

// New returns an engine over cfg.Cluster with the installation, execution and
// deploy item controllers, plus cfg.Deployer when set. It watches the cluster:
// every change is recorded in the timeline and wakes the controllers that care.
func New(cfg Config) *Engine {
	cfg.defaults()
	e := &Engine{
		cfg:      cfg,
		queue:    newQueue(),
		failures: map[item]int{},
		idle:     map[item]bool{},
	}
	e.controllers = map[string]Reconciler{
		InstallationController: &installationController{cfg: &e.cfg},
		ExecutionController:    &executionController{cfg: &e.cfg},
		DeployItemController:   &deployItemController{cfg: &e.cfg},
	}
	if cfg.Deployer != nil {
		e.controllers[DeployerController] = cfg.Deployer
	}
	if err := addIndexes(cfg.Cluster); err != nil {
		panic(fmt.Sprintf("register engine indexes: %v", err)) // a second New on the same cluster is a programmer error
	}
	cfg.Cluster.Watch(e.onChange)
	return e
}

// Config returns the engine's configuration with defaults filled in.
func (e *Engine) Config() Config { return e.cfg }

// Events returns the timeline, oldest first.
func (e *Engine) Events() []Event { return e.events }

// Enqueue asks controller to reconcile the object named key.
func (e *Engine) Enqueue(controller string, key types.NamespacedName) {
	if _, ok := e.controllers[controller]; ok {
		e.queue.Add(item{Controller: controller, Key: key})
	}
}

// onChange records a cluster change in the timeline and wakes the controllers
// that watch it: the object's own controllers and its controlling owner's.
func (e *Engine) onChange(ev fakecluster.Event) {
	e.changes++
	e.events = append(e.events, timelineEntries(e.cfg.Clock.Now(), ev)...)
	obj := ev.New
	key := types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	switch ev.Kind {
	case "Installation":
		e.Enqueue(InstallationController, key)
	case "Execution":
		e.Enqueue(ExecutionController, key)
	case "DeployItem":
		e.Enqueue(DeployItemController, key)
		e.Enqueue(DeployerController, key)
	}
	if owner := metav1.GetControllerOf(obj); owner != nil {
		ownerKey := types.NamespacedName{Namespace: obj.GetNamespace(), Name: owner.Name}
		switch owner.Kind {
		case "Installation":
			e.Enqueue(InstallationController, ownerKey)
		case "Execution":
			e.Enqueue(ExecutionController, ownerKey)
		}
	}
}

// step runs one item and schedules what it asks for. The result of the newest
// reconcile replaces any timer the item had: a level-triggered controller that
// looked at the object now knows best when it must look again.
func (e *Engine) step(ctx context.Context, it item) error {
	e.queue.Cancel(it)
	before := e.changes
	res, err := e.controllers[it.Controller].Reconcile(ctx, it.Key)
	wrote := e.changes != before
	if wrote {
		clear(e.idle)
	}
	now := e.cfg.Clock.Now()
	switch {
	case err != nil:
		n := e.failures[it]
		e.failures[it] = n + 1
		e.idle[it] = !wrote
		e.queue.AddAt(it, now.Add(retryInterval(n)), false)
		fmt.Fprintf(e.cfg.Log, "%s %s %s: retry: %v\n", now.Format(time.RFC3339), it.Controller, it.Key, err)
	case res.RequeueAfter > 0:
		delete(e.failures, it)
		e.idle[it] = !wrote && !res.Deadline
		e.queue.AddAt(it, now.Add(res.RequeueAfter), res.Deadline)
	default:
		delete(e.failures, it)
		delete(e.idle, it)
	}
	return nil
}

// retryInterval grows like client-go's default controller rate limiter:
// 5ms doubling per failure, at most 1000s.
func retryInterval(failures int) time.Duration {
	d := 5 * time.Millisecond
	for i := 0; i < failures && d < 1000*time.Second; i++ {
		d *= 2
	}
	return min(d, 1000*time.Second)
}
