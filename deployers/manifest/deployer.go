package manifest

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/fakecluster"
)

// Type is the deploy item type of Landscaper's manifest deployer.
const Type lsv1alpha1.DeployItemType = "landscaper.gardener.cloud/kubernetes-manifest"

// The timeout checkpoints of Landscaper's manifest deployer, named in
// status.lastError when the progressing timeout hits there.
const (
	CheckpointStartReconcile = "manifest deployer: start reconcile"
	CheckpointStartDelete    = "manifest deployer: start delete"
)

// TargetReader reads Targets from the landscaper's API server;
// fakecluster.Client is one.
type TargetReader interface {
	Get(ctx context.Context, key types.NamespacedName, obj fakecluster.Object) error
}

// Options are the deployer's dependencies.
type Options struct {
	// Clusters gives the client for a deploy item's Target. Required.
	Clusters deployer.ClusterClients
	// Targets reads the Targets that exports, custom readiness checks and
	// deletion groups name by targetName (in the deploy item's namespace).
	// Nil makes such a targetName an error.
	Targets TargetReader
}

// Deployer is Landscaper's manifest deployer (see the package
// documentation).
type Deployer struct {
	opts Options
}

var (
	_ deployer.Deployer  = (*Deployer)(nil)
	_ deployer.Described = (*Deployer)(nil)
)

// New returns the manifest deployer. opts.Clusters must not be nil.
func New(opts Options) *Deployer {
	return &Deployer{opts: opts}
}

// Traits: a normal error leaves the item in Progressing, as Landscaper's
// manifest deployer sets it first thing. The progressing timeout is left
// out on purpose: the deployer checks it itself, at Landscaper's
// checkpoints, so status.lastError names the step it was waiting in; the
// framework's generic check is harmless but, if it runs first, its message
// wins. Progressing must stay false: the deployer tells the first call of a
// job (phase Init: apply) from the later ones (phase Progressing: wait for
// readiness and exports) by the item's phase (see deployer.Deploys).
func (d *Deployer) Traits() deployer.Traits { return deployer.Traits{ProgressingOnError: true} }

// target returns the client for the item's Target.
func (d *Deployer) target(ctx context.Context, req deployer.Request) (client.Client, error) {
	c, err := d.opts.Clusters.ForTarget(ctx, req.Target)
	if err != nil {
		return nil, fmt.Errorf("unable to get target client of deploy item %s: %w", req.Item.Name, err)
	}
	return c, nil
}

// secondary returns the client for the Target named name in the item's
// namespace.
func (d *Deployer) secondary(req deployer.Request) func(ctx context.Context, name string) (client.Client, error) {
	return func(ctx context.Context, name string) (client.Client, error) {
		if d.opts.Targets == nil {
			return nil, fmt.Errorf("unable to read secondary target %s: no target reader", name)
		}
		t := &lsv1alpha1.Target{}
		if err := d.opts.Targets.Get(ctx, types.NamespacedName{Namespace: req.Item.Namespace, Name: name}, t); err != nil {
			return nil, fmt.Errorf("unable to read secondary target %s: %w", name, err)
		}
		c, err := d.opts.Clusters.ForTarget(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("unable to get secondary target client %s: %w", name, err)
		}
		return c, nil
	}
}
