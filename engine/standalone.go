package engine

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/standalone"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// The controllers of stand-alone Executions and DeployItems (package
// engine/standalone), as they appear in saved timers.
const (
	StandaloneExecutionController  = "standalone-execution"
	StandaloneDeployItemController = "standalone-deployitem"
)

// registerStandalone registers the controllers that start the jobs of
// stand-alone Executions and DeployItems.
func (e *Engine) registerStandalone() {
	c := e.cfg.Cluster
	if err := standalone.AddIndexes(c); err != nil {
		panic(fmt.Sprintf("register stand-alone indexes: %v", err)) // a second New on the same cluster is a programmer error
	}
	sa := standalone.New(standalone.Options{Cluster: c, Clock: e.cfg.Clock, IDs: e.cfg.IDs})
	e.loop.Register(StandaloneExecutionController, reconcile.AsReconciler(c, sa.Executions()))
	e.loop.Register(StandaloneDeployItemController, reconcile.AsReconciler(c, sa.DeployItems()))
}

// wakeStandalone wakes the controller of a stand-alone Execution or
// DeployItem that changed. Owned ones are not its business.
func (e *Engine) wakeStandalone(ev fakecluster.Event, key types.NamespacedName) {
	if !standalone.IsStandalone(ev.New) {
		return
	}
	switch ev.Kind {
	case "Execution":
		e.Enqueue(StandaloneExecutionController, key)
	case "DeployItem":
		e.Enqueue(StandaloneDeployItemController, key)
	}
}
