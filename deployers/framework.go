package deployers

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/internal/ids"
	"sigs.k8s.io/controller-runtime/pkg/client"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
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
	Clock reconcile.Clock
	// Deployers serve deploy items by spec.type. A type whose entry is nil is
	// served by nobody: its items hit the pickup timeout.
	Deployers map[lsv1alpha1.DeployItemType]deployer.Deployer
	// Fallback serves the types that have no entry in Deployers. Nil means
	// nobody serves them.
	Fallback deployer.Deployer
	// Info is written to status.deployer of every item picked up, with the
	// name of Landscaper's deployer for the item's type (see deployerInfo).
	Info lsv1alpha1.DeployerInformation
	// IDs derives the job IDs of test-reconcile. Nil: the annotation is
	// ignored.
	IDs *ids.Source
	// Clusters, when it is a deployer.Forecaster, tells when a waiting deployer's
	// target cluster changes by itself. Nil: nothing changes by itself.
	Clusters deployer.ClusterClients

	// Schedule, when set, sets the engine's timer of a deploy item, so that
	// a deployer's write to a simulated cluster calls the items that wait on
	// it again at their next poll (see waiters.go). Nil: they wait for their
	// own next call.
	Schedule func(key types.NamespacedName, at time.Time)

	// faked are the types Fallback served, see FakedTypes.
	faked map[lsv1alpha1.DeployItemType]bool
	// waiters are the items that wait on a simulated cluster (see
	// waiters.go).
	waiters map[types.NamespacedName]waiter
	// waitersLoaded is true once the restored waiters were noted.
	waitersLoaded bool
	// woken are the items a write woke, with the poll they were woken for,
	// until their deployer is called (see wake and wokenAt).
	woken map[types.NamespacedName]time.Time
	// retries are the items whose failed call changed their cluster, with
	// the poll they are retried at (see retry).
	retries map[types.NamespacedName]time.Time
}

// FakedTypes returns the deploy item types that Fallback served (no entry in
// Deployers), sorted: Landscaper would have served them only if a deployer
// for them were installed.
func (f *Framework) FakedTypes() []string {
	out := make([]string, 0, len(f.faked))
	for t := range f.faked {
		out = append(out, string(t))
	}
	sort.Strings(out)
	return out
}

// recordFaked notes typ when Fallback serves it.
func (f *Framework) recordFaked(typ lsv1alpha1.DeployItemType) {
	if _, ok := f.Deployers[typ]; ok || f.Fallback == nil {
		return
	}
	if f.faked == nil {
		f.faked = map[lsv1alpha1.DeployItemType]bool{}
	}
	f.faked[typ] = true
}

var _ reconcile.ObjectReconciler[*lsv1alpha1.DeployItem] = (*Framework)(nil)

// Reconciler returns f as a Reconciler of deploy items by key, for the run
// loop: it reads the item and calls Reconcile.
func (f *Framework) Reconciler() reconcile.Reconciler { return reconcile.AsReconciler(f.Client, f) }

var _ reconcile.Idler[*lsv1alpha1.DeployItem] = (*Framework)(nil)

// Idle reports whether a reconcile of di would do nothing: no deployer
// serves it, or its job has finished and it has no test-reconcile annotation.
func (f *Framework) Idle(_ context.Context, di *lsv1alpha1.DeployItem) bool {
	d := f.deployerFor(di.Spec.Type)
	if d == nil || !picksUp(d, di) {
		return true
	}
	testReconcile := f.IDs != nil && lshelper.HasOperation(di.ObjectMeta, lsv1alpha1.TestReconcileOperation)
	return !testReconcile && di.Status.JobID == di.Status.JobIDFinished
}

// Reconcile handles the deploy item di as Landscaper's deployer library does,
// if its type is served, the deployer picks it up (deployer.Picker) and its
// job is unfinished (or it has the test-reconcile annotation, which starts a
// new job). An item whose Target does not exist fails (reason NoTargetFound)
// without being picked up. A new job starts in Init (InitDelete when
// deleting) with observedGeneration, lastReconcileTime, initTime and
// status.deployer set; then the deployer's Reconcile or Delete runs, see
// reconcile and delete. A final phase finishes the job.
func (f *Framework) Reconcile(ctx context.Context, di *lsv1alpha1.DeployItem) (reconcile.Result, error) {
	if f.Idle(ctx, di) {
		return reconcile.Result{}, nil
	}
	d := f.deployerFor(di.Spec.Type)
	if d == nil || !picksUp(d, di) {
		return reconcile.Result{}, nil
	}
	// As Landscaper's library, the Target is read and resolved first
	// (CheckResponsibility): an error there leaves the item as it is, also
	// its test-reconcile annotation.
	target, err := f.target(ctx, di)
	if err != nil {
		return reconcile.Result{}, err
	}
	if err := f.resolveTarget(ctx, target); err != nil {
		return reconcile.Result{}, err
	}
	testReconcile, err := f.testReconcile(ctx, di)
	if err != nil {
		return reconcile.Result{}, err
	}
	if di.Status.JobID == di.Status.JobIDFinished {
		return reconcile.Result{}, nil
	}
	if target == nil && needsTarget(di) {
		return reconcile.Result{}, f.failNoTarget(ctx, di)
	}
	if di.Status.Phase == "" || di.Status.Phase.IsFinal() {
		if done, err := f.pickUp(ctx, di, testReconcile); done || err != nil {
			return reconcile.Result{}, err
		}
	}
	f.recordFaked(di.Spec.Type)
	f.stopWaiting(di)
	c := call{d: d, di: di, traits: deployer.TraitsOf(d), req: deployer.Request{Item: di.DeepCopy(), Target: target, Now: f.Clock.Now()}}
	if failedJustNow(di, c.req.Now) {
		// Woken by its own status write (an error whose message differs
		// from the last one, such as helm's log of a rollback with its
		// revisions): the retry waits as any retry does. On a cluster the
		// attempt itself takes time; on the virtual clock it would repeat
		// at the same instant for ever. A new job of test-reconcile is
		// written all the same, as Landscaper writes every status change.
		if testReconcile {
			if err := f.Client.UpdateStatus(ctx, di); err != nil {
				return reconcile.Result{}, fmt.Errorf("start test-reconcile job of deploy item %s: %w", di.Name, err)
			}
		}
		return f.next(c, f.pendingRetry(c)), nil
	}
	delete(f.retries, client.ObjectKeyFromObject(di))
	if di.DeletionTimestamp != nil {
		return f.delete(ctx, c)
	}
	return f.reconcile(ctx, c)
}

// failedJustNow reports whether the deployer's last call for di, in this
// job, ended in an error at now.
func failedJustNow(di *lsv1alpha1.DeployItem, now time.Time) bool {
	le := di.Status.LastError
	return le != nil && !di.Status.Phase.IsFinal() && le.LastUpdateTime.Time.Equal(now)
}

// call is one call of a deployer for one item.
type call struct {
	d      deployer.Deployer
	di     *lsv1alpha1.DeployItem
	traits deployer.Traits
	req    deployer.Request
	// changed says the deployer's call changed the item's simulated
	// cluster (see deploy) or its providerStatus (see reconcile), so that
	// a retry can do something else.
	changed bool
}

// deployerFor returns the deployer serving typ, or nil.
func (f *Framework) deployerFor(typ lsv1alpha1.DeployItemType) deployer.Deployer {
	if d, ok := f.Deployers[typ]; ok {
		return d
	}
	return f.Fallback
}

// Serves reports whether a deployer serves deploy items of type typ.
func (f *Framework) Serves(typ lsv1alpha1.DeployItemType) bool { return f.deployerFor(typ) != nil }

// picksUp asks d, if it is a deployer.Picker, whether it serves di.
func picksUp(d deployer.Deployer, di *lsv1alpha1.DeployItem) bool {
	p, ok := d.(deployer.Picker)
	return !ok || p.PicksUp(di)
}

// needsTarget is true when di names a Target, which must then exist: as in
// Landscaper's library, also for a deletion without uninstall, which does
// not touch it (CheckResponsibility looks before anything else).
func needsTarget(di *lsv1alpha1.DeployItem) bool {
	return di.Spec.Target != nil && di.Spec.Target.Name != ""
}

// target returns the item's Target, or nil when it names none or the
// Target does not exist.
func (f *Framework) target(ctx context.Context, di *lsv1alpha1.DeployItem) (*lsv1alpha1.Target, error) {
	if di.Spec.Target == nil || di.Spec.Target.Name == "" {
		return nil, nil
	}
	t := &lsv1alpha1.Target{}
	key := types.NamespacedName{Namespace: di.Namespace, Name: di.Spec.Target.Name}
	if err := f.Client.Get(ctx, key, t); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("get target of deploy item %s: %w", di.Name, err)
	}
	return t, nil
}

// resolveTarget reads the Secret of target's secretRef, as Landscaper's
// deployer library resolves the Target before it looks at the item
// (checkTargetResponsibilityAndResolve): a Secret or key that does not
// exist is an error that leaves the item untouched, for every deployer, so
// an item not picked up yet is never picked up and the pickup timeout fails
// it. A nil target, or one without secretRef, needs nothing.
func (f *Framework) resolveTarget(ctx context.Context, target *lsv1alpha1.Target) error {
	if target == nil || target.Spec.SecretRef == nil {
		return nil
	}
	if _, err := realcluster.TargetContent(ctx, target, f.Client); err != nil {
		return reconcile.Wrap(err, "checkTargetResponsibilityAndResolve", "resolveTarget")
	}
	return nil
}

// failNoTarget fails di because its Target does not exist, as Landscaper's
// deployer library does: Failed (DeleteFailed) with reason NoTargetFound,
// without picking it up.
func (f *Framework) failNoTarget(ctx context.Context, di *lsv1alpha1.DeployItem) error {
	now := f.Clock.Now()
	reconcile.SetDeployItemError(&di.Status, reconcile.UpdatedError(di.Status.LastError, "reconcilePrivate", "NoTargetFound",
		"setting deploy item to failed due to missing target", nil, now))
	setPhase(di, failedPhase(di), now)
	if err := f.Client.UpdateStatus(ctx, di); err != nil {
		return fmt.Errorf("fail deploy item %s: %w", di.Name, err)
	}
	return nil
}

// failedPhase is Failed, or DeleteFailed for an item being deleted.
func failedPhase(di *lsv1alpha1.DeployItem) lsv1alpha1.DeployItemPhase {
	if di.DeletionTimestamp != nil {
		return lsv1alpha1.DeployItemPhases.DeleteFailed
	}
	return lsv1alpha1.DeployItemPhases.Failed
}

// checkContext requires the item's Context, as Landscaper's deployer library
// does before it calls the deployer. A missing Context is a normal error:
// the item stays in its phase and is tried again.
func (f *Framework) checkContext(ctx context.Context, di *lsv1alpha1.DeployItem, op string) error {
	name := di.Spec.Context
	if name == "" {
		name = lsv1alpha1.DefaultContextName
	}
	lsCtx := &lsv1alpha1.Context{}
	if err := f.Client.Get(ctx, types.NamespacedName{Namespace: di.Namespace, Name: name}, lsCtx); err != nil {
		return reconcile.Wrap(err, op, "GetLandscaperContext")
	}
	return nil
}

// testReconcile handles the test-reconcile operation annotation as
// Landscaper's deployer library does: it removes the annotation and gives
// the item a new jobID and new transition times (the trigger time now), in
// memory only: the first status write of the new job is the next one, such
// as the pick-up's. It reports whether it did.
func (f *Framework) testReconcile(ctx context.Context, di *lsv1alpha1.DeployItem) (bool, error) {
	if f.IDs == nil || !lshelper.HasOperation(di.ObjectMeta, lsv1alpha1.TestReconcileOperation) {
		return false, nil
	}
	delete(di.Annotations, lsv1alpha1.OperationAnnotation)
	if err := f.Client.Update(ctx, di); err != nil {
		return false, fmt.Errorf("remove test-reconcile annotation of deploy item %s: %w", di.Name, err)
	}
	di.Status.JobID = f.IDs.JobID("DeployItem", di.Namespace, di.Name, string(di.UID), di.Status.JobID)
	now := metav1.NewTime(f.Clock.Now())
	di.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{TriggerTime: &now}
	return true, nil
}

// pickUp starts the item's new job: phase Init (InitDelete when deleting),
// observedGeneration, lastReconcileTime ("picked up"), initTime, deployer
// information, no errors. An unchanged Succeeded item with
// spec.updateOnChangeOnly finishes its job at once (done is true), unless
// the job is one of test-reconcile.
func (f *Framework) pickUp(ctx context.Context, di *lsv1alpha1.DeployItem, testReconcile bool) (done bool, err error) {
	now := metav1.NewTime(f.Clock.Now())
	done = !testReconcile && di.DeletionTimestamp == nil && di.Spec.UpdateOnChangeOnly &&
		di.Generation == di.Status.ObservedGeneration && di.Status.Phase == lsv1alpha1.DeployItemPhases.Succeeded
	switch {
	case done:
	case di.DeletionTimestamp != nil:
		di.Status.Phase = lsv1alpha1.DeployItemPhases.InitDelete
	default:
		di.Status.Phase = lsv1alpha1.DeployItemPhases.Init
	}
	di.Status.ObservedGeneration = di.Generation
	di.Status.LastReconcileTime = &now
	di.Status.Deployer = f.deployerInfo(di.Spec.Type)
	reconcile.ClearDeployItemErrors(&di.Status)
	if di.Status.TransitionTimes == nil {
		di.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{}
	}
	di.Status.TransitionTimes.InitTime = &now
	if done {
		setPhase(di, di.Status.Phase, now.Time)
	}
	if err := f.Client.UpdateStatus(ctx, di); err != nil {
		return false, fmt.Errorf("pick up deploy item %s: %w", di.Name, err)
	}
	return done, nil
}

// landscaperDeployerNames are the names Landscaper's own deployers write
// into status.deployer.name, by the type they deploy (the Name of each
// deployer package: pkg/deployer/helm/helm.go, pkg/deployer/manifest,
// pkg/deployer/container, pkg/deployer/mock/configuration.go).
var landscaperDeployerNames = map[lsv1alpha1.DeployItemType]string{
	HelmType:      "helm.deployer.landscaper.gardener.cloud",
	ManifestType:  "manifest.deployer.landscaper.gardener.cloud",
	ContainerType: "container.deployer.landscaper.gardener.cloud",
	MockType:      "mock.deployer.landscaper.gardener.cloud",
}

// deployerInfo is what a deployer of typ writes into status.deployer: Info
// with the name of Landscaper's deployer of typ, whether lscli runs it or
// fakes it; Info as it is for other types.
func (f *Framework) deployerInfo(typ lsv1alpha1.DeployItemType) lsv1alpha1.DeployerInformation {
	info := f.Info
	if name, ok := landscaperDeployerNames[typ]; ok {
		info.Name = name
	}
	return info
}
