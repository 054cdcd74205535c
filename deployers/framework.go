package deployers

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
)

// PollInterval is how often the framework calls a deployer again while a
// deploy item is not done, as Landscaper's deployers re-reconcile.
const PollInterval = 5 * time.Second

// Framework runs the deployer contract for the types in Deployers. It is the
// engine's deployer controller.
type Framework struct {
	// Client is the API server. Required.
	Client fakecluster.Client
	// Clock tells the virtual time. Required.
	Clock engine.Clock
	// Deployers serve deploy items by spec.type. A type whose entry is nil is
	// served by nobody: its items hit the pickup timeout.
	Deployers map[lsv1alpha1.DeployItemType]Deployer
	// Fallback serves the types that have no entry in Deployers. Nil means
	// nobody serves them.
	Fallback Deployer
	// Info is written to status.deployer of every item picked up.
	Info lsv1alpha1.DeployerInformation
}

var _ engine.Reconciler = (*Framework)(nil)

// Reconcile handles the deploy item named key if its type is served and its
// job is unfinished. A new job starts in Init (InitDelete when deleting) with
// observedGeneration, lastReconcileTime and status.deployer set; then the
// deployer's Reconcile or Delete runs. A final phase finishes the job.
func (f *Framework) Reconcile(ctx context.Context, key types.NamespacedName) (engine.Result, error) {
	di := &lsv1alpha1.DeployItem{}
	if err := f.Client.Get(ctx, key, di); err != nil {
		if apierrors.IsNotFound(err) {
			return engine.Result{}, nil
		}
		return engine.Result{}, err
	}
	d := f.deployerFor(di.Spec.Type)
	if d == nil || di.Status.JobID == di.Status.JobIDFinished {
		return engine.Result{}, nil
	}
	target, err := f.target(ctx, di)
	if err != nil {
		return engine.Result{}, err
	}
	if err := f.checkContext(ctx, di); err != nil {
		return engine.Result{}, err
	}
	if di.Status.Phase == "" || di.Status.Phase.IsFinal() {
		if err := f.pickUp(ctx, di); err != nil {
			return engine.Result{}, err
		}
	}
	req := Request{Item: di.DeepCopy(), Target: target, Now: f.Clock.Now()}
	if di.DeletionTimestamp != nil {
		return f.delete(ctx, d, di, req)
	}
	return f.reconcile(ctx, d, di, req)
}

// deployerFor returns the deployer serving typ, or nil.
func (f *Framework) deployerFor(typ lsv1alpha1.DeployItemType) Deployer {
	if d, ok := f.Deployers[typ]; ok {
		return d
	}
	return f.Fallback
}

// target returns the item's Target. A missing Target is a normal error: the
// item is not picked up, and the landscaper's pickup timeout fails it.
func (f *Framework) target(ctx context.Context, di *lsv1alpha1.DeployItem) (*lsv1alpha1.Target, error) {
	if di.Spec.Target == nil || di.Spec.Target.Name == "" {
		return nil, nil
	}
	t := &lsv1alpha1.Target{}
	key := types.NamespacedName{Namespace: di.Namespace, Name: di.Spec.Target.Name}
	if err := f.Client.Get(ctx, key, t); err != nil {
		return nil, fmt.Errorf("unable to get target for deployitem: %w", err)
	}
	return t, nil
}

// checkContext requires the item's Context, as Landscaper's deployer library does.
func (f *Framework) checkContext(ctx context.Context, di *lsv1alpha1.DeployItem) error {
	name := di.Spec.Context
	if name == "" {
		name = lsv1alpha1.DefaultContextName
	}
	lsCtx := &lsv1alpha1.Context{}
	if err := f.Client.Get(ctx, types.NamespacedName{Namespace: di.Namespace, Name: name}, lsCtx); err != nil {
		return fmt.Errorf("unable to get landscaper context: %w", err)
	}
	return nil
}

// pickUp starts the item's new job: phase Init (InitDelete when deleting),
// observedGeneration, lastReconcileTime ("picked up"), deployer information.
func (f *Framework) pickUp(ctx context.Context, di *lsv1alpha1.DeployItem) error {
	now := metav1.NewTime(f.Clock.Now())
	di.Status.Phase = lsv1alpha1.DeployItemPhases.Init
	if di.DeletionTimestamp != nil {
		di.Status.Phase = lsv1alpha1.DeployItemPhases.InitDelete
	}
	di.Status.ObservedGeneration = di.Generation
	di.Status.LastReconcileTime = &now
	di.Status.Deployer = f.Info
	di.Status.LastError = nil
	if di.Status.TransitionTimes == nil {
		di.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{}
	}
	di.Status.TransitionTimes.InitTime = &now
	if err := f.Client.UpdateStatus(ctx, di); err != nil {
		return fmt.Errorf("pick up deploy item %s: %w", di.Name, err)
	}
	return nil
}
