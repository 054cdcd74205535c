package deployer

import (
	"context"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Request is what a deployer gets for one deploy item.
type Request struct {
	// Item is a copy of the deploy item; the deployer must not write it.
	Item *lsv1alpha1.DeployItem
	// Target is the item's Target, or nil when it names none.
	Target *lsv1alpha1.Target
	// Now is the current virtual time.
	Now time.Time
	// Progress, when not nil, writes the item's status at once with phase
	// Progressing and providerStatus (when not nil), as Landscaper's helm
	// and manifest deployers write it after a successful install or apply,
	// before they check readiness; the call goes on after it, and what it
	// returns is written at its end as always. Item is updated to match.
	Progress func(ctx context.Context, providerStatus *runtime.RawExtension) error
}

// ReportProgress calls Progress, when the request has one.
func (r Request) ReportProgress(ctx context.Context, providerStatus *runtime.RawExtension) error {
	if r.Progress == nil {
		return nil
	}
	return r.Progress(ctx, providerStatus)
}

// Result is what a deployer reports back to the framework.
type Result struct {
	// Phase is the item's new phase. For Reconcile, "" means Succeeded; a
	// non-final phase (e.g. Progressing) means not done yet. For Delete, "" or
	// Succeeded means the uninstall is done; Deleting means not done yet.
	Phase lsv1alpha1.DeployItemPhase
	// RequeueAfter is when to call again while not done. Zero means the
	// framework's default poll interval.
	RequeueAfter time.Duration
	// Deadline is true when the deployer will finish at RequeueAfter (a
	// simulated duration), false for a plain re-poll.
	Deadline bool
	// Exports, when not nil, is JSON the framework stores in the item's export
	// Secret for the execution to collect.
	Exports []byte
	// ExportSecretGenerateName names a new export Secret; empty means
	// "<item name>-export".
	ExportSecretGenerateName string
	// ExportSecretController makes the owner reference of a new export
	// Secret a controller reference (controller and blockOwnerDeletion), as
	// Landscaper's container deployer sets it; otherwise it is a plain one,
	// as Landscaper's deployer library sets it.
	ExportSecretController bool
	// DeleteExportSecret, for a Delete that is done, has the framework
	// delete the Secret that status.exportReference names before the item
	// goes, as Landscaper's mock deployer does in its Delete; otherwise the
	// Secret goes with the item, whose owner reference it carries.
	DeleteExportSecret bool
	// ProviderStatus, when not nil, replaces status.providerStatus.
	ProviderStatus *runtime.RawExtension
	// Conditions are created or updated in status.conditions (with
	// Landscaper's rules for their times), also when the call returns an
	// error, as Landscaper's mock deployer writes its validation condition.
	Conditions []Condition
}

// Condition is a condition a deployer reports for a deploy item.
type Condition struct {
	Type    lsv1alpha1.ConditionType
	Status  lsv1alpha1.ConditionStatus
	Reason  string
	Message string
}

// Deployer does the type-specific work for deploy items. As in Landscaper's
// deployer library, an error fails the item only when it carries an
// unrecoverable error code (reconcile.IsUnrecoverable: e.g. a reconcile.Error
// with ERR_CONFIGURATION_PROBLEM or ERR_TIMEOUT, or reconcile.TerminalError);
// any other error keeps the item in its phase with the error as its
// lastError, and the deployer is called again.
type Deployer interface {
	Reconcile(ctx context.Context, req Request) (Result, error)
	Delete(ctx context.Context, req Request) (Result, error)
}

// Operation says which Deployer method a Func is called for.
type Operation string

// The operations of a Deployer.
const (
	OperationReconcile Operation = "Reconcile"
	OperationDelete    Operation = "Delete"
)

// Func adapts a function to a Deployer; op says which method was called.
type Func func(ctx context.Context, op Operation, req Request) (Result, error)

var _ Deployer = Func(nil)

// Reconcile calls f with OperationReconcile.
func (f Func) Reconcile(ctx context.Context, req Request) (Result, error) {
	return f(ctx, OperationReconcile, req)
}

// Delete calls f with OperationDelete.
func (f Func) Delete(ctx context.Context, req Request) (Result, error) {
	return f(ctx, OperationDelete, req)
}

// ClusterClients gives deployers the Kubernetes client for a Target's cluster:
// by default a simulated cluster kept in the lscli state; for a Target with a
// kubeconfig that the user opted in for, a real cluster.
type ClusterClients interface {
	// ForTarget returns the client for target's cluster. target may be nil
	// for deploy items without a target.
	ForTarget(ctx context.Context, target *lsv1alpha1.Target) (client.Client, error)
}

// Traits say how the framework treats a deployer's items where Landscaper's
// deployers differ. The zero value is the mock deployer's behaviour.
type Traits struct {
	// ProgressingTimeout says that the item's spec.timeout (default 10m,
	// "none" disables it), measured from status.transitionTimes.initTime,
	// applies, as for Landscaper's helm, manifest and container deployers:
	// the framework calls the deployer again at the deadline and, if it is
	// not done then (or still fails with a normal error), fails the item:
	// Failed (DeleteFailed) with reason ProgressingTimeout and code
	// ERR_TIMEOUT. A deployer may check the timeout itself, earlier, with
	// its own message (package deployers/timeout).
	ProgressingTimeout bool
	// Progressing makes the framework set phase Progressing (Deleting) before
	// it calls Reconcile (Delete) on an item in Init (InitDelete), as those
	// deployers do first thing.
	Progressing bool
	// ProgressingOnError says that the deployer, as Landscaper's helm and
	// manifest deployers, sets phase Progressing (Deleting) at the start of
	// every reconcile (delete), so that a normal error of Reconcile (Delete)
	// leaves the item in Progressing, not Init (Deleting, not InitDelete),
	// while it is retried. Such a deployer tells a retry, which starts over,
	// from a poll by status.lastError (see Deploys and DeletePolls): the
	// framework clears it after every call without error, as Landscaper's
	// library does.
	ProgressingOnError bool
}

// Described is implemented by deployers whose Traits are not the zero value.
type Described interface {
	Traits() Traits
}

// TraitsOf returns d's traits: d.Traits() if d is Described, else the zero
// value.
func TraitsOf(d Deployer) Traits {
	if dd, ok := d.(Described); ok {
		return dd.Traits()
	}
	return Traits{}
}

// Picker is implemented by deployers that serve only some items of their
// type. The framework leaves an item alone while PicksUp is false, so the
// landscaper's pickup timeout fails it.
type Picker interface {
	PicksUp(item *lsv1alpha1.DeployItem) bool
}

// Forecaster is implemented by ClusterClients that know when the clusters
// behind Targets change by themselves (the simulated cluster's fake
// controllers with a delay). The framework wakes a deployer that waits for
// its cluster at that time instead of polling.
type Forecaster interface {
	// NextChange returns when target's cluster changes next by itself, if
	// it will.
	NextChange(target *lsv1alpha1.Target) (time.Time, bool)
	// Unpredictable reports whether target's cluster may change at any time
	// (a real cluster). The framework then keeps the deployer's polls as
	// they are.
	Unpredictable(target *lsv1alpha1.Target) bool
}

// ChangeCounter is implemented by clusters that count the writes that
// change them, so that the framework can tell that a deployer changed a
// cluster other deploy items wait on.
type ChangeCounter interface {
	// Changes counts the writes that changed any of the clusters.
	Changes() uint64
	// ClusterOf identifies target's cluster; ok is false when its changes
	// are not counted (a real cluster) or it cannot be named.
	ClusterOf(target *lsv1alpha1.Target) (cluster string, ok bool)
}

// withTraits is a Deployer with traits given from outside.
type withTraits struct {
	Deployer
	traits Traits
}

// WithTraits returns d with traits t, for deployers that do not declare
// their own. It keeps d's Picker.
func WithTraits(d Deployer, t Traits) Deployer {
	return withTraits{Deployer: d, traits: t}
}

// Traits returns the traits given to WithTraits.
func (w withTraits) Traits() Traits { return w.traits }

// PicksUp asks the wrapped deployer, if it is a Picker.
func (w withTraits) PicksUp(item *lsv1alpha1.DeployItem) bool {
	p, ok := w.Deployer.(Picker)
	return !ok || p.PicksUp(item)
}

// KubernetesDeployer are the traits of Landscaper's manifest and helm
// deployers: the progressing timeout applies (they check it themselves too, and set their
// phases themselves), and a normal error leaves the item in Progressing.
var KubernetesDeployer = Traits{
	ProgressingTimeout: true,
	ProgressingOnError: true,
}

// Deploys reports whether a call of a deployer with
// Traits.ProgressingOnError on item is to deploy (install, upgrade, apply)
// rather than look whether what it deployed is ready: in phase Init, the
// first call of a job; and after a call that failed (status.lastError set,
// which the framework clears after every call without error), as
// Landscaper's deployers start over at every reconcile.
func Deploys(item *lsv1alpha1.DeployItem) bool {
	return item.Status.Phase != lsv1alpha1.DeployItemPhases.Progressing || item.Status.LastError != nil
}

// WaitsForOrphans reports whether a Reconcile call of a deployer with
// Traits.ProgressingOnError on item goes on waiting for the orphaned objects
// of an apply to go: phase Init after a call without error, later than the
// job's start (status.transitionTimes.initTime). The manifest deployer, and
// the helm deployer with helmDeployment: false, end a call in Init only
// while orphans are being deleted, which Landscaper's applier waits for
// inside its one call.
func WaitsForOrphans(item *lsv1alpha1.DeployItem, now time.Time) bool {
	tt := item.Status.TransitionTimes
	return item.Status.Phase == lsv1alpha1.DeployItemPhases.Init && item.Status.LastError == nil &&
		tt != nil && tt.InitTime != nil && now.After(tt.InitTime.Time)
}

// DeletePolls reports whether a Delete call of a deployer with
// Traits.ProgressingOnError on item only goes on with a deletion that an
// earlier call started and that is waiting for objects to go (phase
// Deleting after a call without error), rather than starting over (phase
// InitDelete, or after a call that failed).
func DeletePolls(item *lsv1alpha1.DeployItem) bool {
	return item.Status.Phase == lsv1alpha1.DeployItemPhases.Deleting && item.Status.LastError == nil
}
