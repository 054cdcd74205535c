package deployers

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
	// ProviderStatus, when not nil, replaces status.providerStatus.
	ProviderStatus *runtime.RawExtension
}

// Deployer does the type-specific work for deploy items. Errors are normal
// (retried with growing intervals) unless wrapped with engine.TerminalError,
// which fails the item.
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
