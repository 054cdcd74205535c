package readiness

import (
	"context"
	"errors"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/readinesschecks"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/reconcile"
)

// PollInterval is how often Landscaper repeats a readiness check.
const PollInterval = 5 * time.Second

// GenericCheckpoint is the timeout checkpoint while no object was looked at.
const GenericCheckpoint = "deployer: during readiness check"

// SecondaryClient returns the client for the Target named targetName in the
// deploy item's namespace.
type SecondaryClient func(ctx context.Context, targetName string) (client.Client, error)

// NotReadyError says that an object is not ready, or could not be read or
// checked; the caller polls again.
type NotReadyError struct {
	// Object is the object that is not ready. For an empty label selection it
	// has only apiVersion and kind.
	Object lsv1alpha1.TypedObjectReference
	// Err says why.
	Err error
	// checkpoint is what a timeout now would name.
	checkpoint string
}

// Error reads like Landscaper's: "<gvk> <name>/<namespace> is not ready: <why>".
func (e *NotReadyError) Error() string {
	gvk := schema.FromAPIVersionAndKind(e.Object.APIVersion, e.Object.Kind).String()
	return fmt.Sprintf("%s %s/%s is not ready: %v", gvk, e.Object.Name, e.Object.Namespace, e.Err)
}

// Unwrap returns Err.
func (e *NotReadyError) Unwrap() error { return e.Err }

// Checkpoint is the timeout checkpoint Landscaper reports when the deadline
// passes while it waits for this object, e.g. "deployer: during readiness
// check - resource ns/name of type Deployment".
func (e *NotReadyError) Checkpoint() string {
	if e.checkpoint == "" {
		return GenericCheckpoint
	}
	return e.checkpoint
}

// Timeout is the error Landscaper's WaitForObjectsReady returns when the
// deadline passes while it waits for this object: operation
// WaitForObjectsReady, reason ProgressingTimeout, message `timeout at:
// "<Checkpoint>"`, ERR_TIMEOUT and ERR_FOR_INFO_ONLY, wrapping the poll's
// context.DeadlineExceeded. The helm and manifest deployers return it as it
// is.
func (e *NotReadyError) Timeout() error {
	return reconcile.WrapError(context.DeadlineExceeded, "WaitForObjectsReady", lsv1alpha1.ProgressingTimeoutReason,
		fmt.Sprintf("timeout at: %q", e.Checkpoint()), lsv1alpha1.ErrorTimeout, lsv1alpha1.ErrorForInfoOnly)
}

// notReady builds the NotReadyError for u, which was looked at.
func notReady(u *unstructured.Unstructured, err error) *NotReadyError {
	return &NotReadyError{Object: refOf(u), Err: err,
		checkpoint: fmt.Sprintf("%s - resource %s/%s of type %s", GenericCheckpoint, u.GetNamespace(), u.GetName(), u.GetKind())}
}

// IsNotReady reports whether err is, or wraps, a *NotReadyError.
func IsNotReady(err error) bool {
	var nr *NotReadyError
	return errors.As(err, &nr)
}

// Options says what Check looks at.
type Options struct {
	// Client reads the deploy item's target cluster. Required.
	Client client.Client
	// Resources are the managed objects for the default check.
	Resources []lsv1alpha1.TypedObjectReference
	// FailOnMissingObject makes the default check read every managed object
	// (manifest deployer, helm manifest-only); false reads only the six kinds
	// with rules (real helm releases). Default false.
	FailOnMissingObject bool
	// KStatus uses kstatus instead of Landscaper's per-kind rules in the
	// default check. Default false (Landscaper's rules).
	KStatus bool
	// Secondary resolves targetName of custom checks. Nil makes a targetName
	// an error.
	Secondary SecondaryClient
}

// Check runs the default check (unless cfg.DisableDefault), then every
// custom check that is not disabled, in order, as Landscaper does. It returns
// nil when all pass, a *NotReadyError for the first object that does not, or
// another error when a check cannot run.
func Check(ctx context.Context, cfg readinesschecks.ReadinessCheckConfiguration, opts Options) error {
	if !cfg.DisableDefault {
		rule := Object
		if opts.KStatus {
			rule = KStatus
		}
		if err := checkDefault(ctx, opts.Client, opts.Resources, opts.FailOnMissingObject, rule); err != nil {
			return err
		}
	}
	for _, custom := range cfg.CustomReadinessChecks {
		if err := CheckCustom(ctx, opts.Client, custom, opts.Secondary); err != nil {
			return err
		}
	}
	return nil
}

// refOf is the typed reference to u.
func refOf(u *unstructured.Unstructured) lsv1alpha1.TypedObjectReference {
	return lsv1alpha1.TypedObjectReference{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(),
		ObjectReference: lsv1alpha1.ObjectReference{Name: u.GetName(), Namespace: u.GetNamespace()}}
}

// objectFor is an empty object of ref's type and name, to read it into.
func objectFor(ref lsv1alpha1.TypedObjectReference) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(ref.APIVersion)
	u.SetKind(ref.Kind)
	u.SetName(ref.Name)
	u.SetNamespace(ref.Namespace)
	return u
}
