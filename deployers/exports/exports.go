package exports

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/reconcile"
)

// PollInterval is how often Landscaper tries to read an export again.
const PollInterval = 5 * time.Second

// SecondaryClient returns the client for the Target named targetName in the
// deploy item's namespace.
type SecondaryClient func(ctx context.Context, targetName string) (client.Client, error)

// PendingError says that the export with Key cannot be read yet.
type PendingError struct {
	// Key is the export's key.
	Key string
	// Err says why.
	Err error
}

// Error names the export and why it cannot be read.
func (e *PendingError) Error() string { return fmt.Sprintf("export %q: %v", e.Key, e.Err) }

// Unwrap returns Err.
func (e *PendingError) Unwrap() error { return e.Err }

// Checkpoint is the timeout checkpoint Landscaper reports when the deadline
// passes while it waits for this export.
func (e *PendingError) Checkpoint() string { return "deployer: during export - key: " + e.Key }

// Timeout is the error Landscaper's Exporter.Export returns when the
// deadline passes while it waits for this export: operation Export, reason
// ProgressingTimeout, message `timeout at: "<Checkpoint>"`, ERR_TIMEOUT,
// wrapping the poll's context.DeadlineExceeded. The manifest deployer wraps
// it as ReconcileManifests/ReadExportValues, the helm deployer as
// ApplyFile/ReadExportValues (reconcile.Wrap).
func (e *PendingError) Timeout() error {
	return reconcile.WrapError(context.DeadlineExceeded, "Export", lsv1alpha1.ProgressingTimeoutReason,
		fmt.Sprintf("timeout at: %q", e.Checkpoint()), lsv1alpha1.ErrorTimeout)
}

// Read reads every export that has fromResource, in order, from c (or from
// the Target named by its targetName, resolved with secondary, which may be
// nil when no export names one) and deep-merges the results. It returns nil
// when there is nothing to export, and a *PendingError for the first export
// that cannot be read.
func Read(ctx context.Context, c client.Client, exports *managedresource.Exports, secondary SecondaryClient) (map[string]any, error) {
	if exports == nil {
		return nil, nil
	}
	var result map[string]any
	for _, export := range exports.Exports {
		if export.FromResource == nil {
			continue
		}
		value, err := One(ctx, c, export, secondary)
		if err != nil {
			return nil, &PendingError{Key: export.Key, Err: err}
		}
		result = MergeMaps(result, value)
	}
	return result, nil
}

// One reads the single export, which must have fromResource, and returns it
// as a map nested along its key.
func One(ctx context.Context, c client.Client, export managedresource.Export, secondary SecondaryClient) (map[string]any, error) {
	if export.FromResource == nil {
		return nil, fmt.Errorf("export %q has no fromResource", export.Key)
	}
	c, err := clientFor(ctx, c, export.TargetName, secondary)
	if err != nil {
		return nil, err
	}
	obj, err := get(ctx, c, *export.FromResource)
	if err != nil {
		return nil, err
	}
	val, err := GetValue(export.JSONPath, obj.Object)
	if err != nil {
		return nil, err
	}
	if ref := export.FromObjectReference; ref != nil {
		if val, err = fromReferencedObject(ctx, c, export.FromResource.Namespace, *ref, val); err != nil {
			return nil, err
		}
	}
	return Construct(export.Key, val)
}

// fromReferencedObject reads ref.JSONPath from the object that val, a map
// with name and optional namespace, points to.
func fromReferencedObject(ctx context.Context, c client.Client, namespace string, ref managedresource.FromObjectReference, val any) (any, error) {
	m, ok := val.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("unexpected reference %#v, expected map with name and namespace", val)
	}
	name, ok := m["name"].(string)
	if !ok {
		return nil, fmt.Errorf("unexpected reference %#v, expected map to have a name key with a string value", val)
	}
	if ns, found := m["namespace"]; found {
		if namespace, ok = ns.(string); !ok {
			return nil, fmt.Errorf("expected namespace %#v to be a string", ns)
		}
	}
	obj, err := get(ctx, c, lsv1alpha1.TypedObjectReference{APIVersion: ref.APIVersion, Kind: ref.Kind,
		ObjectReference: lsv1alpha1.ObjectReference{Name: name, Namespace: namespace}})
	if err != nil {
		return nil, err
	}
	return GetValue(ref.JSONPath, obj.Object)
}

// get reads the object ref names.
func get(ctx context.Context, c client.Client, ref lsv1alpha1.TypedObjectReference) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(ref.APIVersion)
	u.SetKind(ref.Kind)
	if err := c.Get(ctx, client.ObjectKey{Namespace: ref.Namespace, Name: ref.Name}, u); err != nil {
		return nil, fmt.Errorf("unable to get %s %s/%s: %w", ref.Kind, ref.Namespace, ref.Name, err)
	}
	return u, nil
}

// clientFor is c, or the client for the Target named targetName.
func clientFor(ctx context.Context, c client.Client, targetName *string, secondary SecondaryClient) (client.Client, error) {
	if targetName == nil {
		return c, nil
	}
	if secondary == nil {
		return nil, fmt.Errorf("unable to get secondary target %s: no target resolver", *targetName)
	}
	return secondary(ctx, *targetName)
}
