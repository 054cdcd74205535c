package standalone

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/reconcile"
)

// Options are what the controller needs.
type Options struct {
	// Cluster is the API server. Required.
	Cluster fakecluster.Client
	// Clock stamps the new jobs. Required.
	Clock reconcile.Clock
	// IDs derives the job IDs. The zero value uses seed 0.
	IDs ids.Source
}

// Controller starts the jobs of stand-alone Executions and DeployItems (see
// the package documentation).
type Controller struct {
	opts Options
}

// New returns the controller over opts.
func New(opts Options) *Controller { return &Controller{opts: opts} }

// Executions returns the controller's reconciler of Executions.
func (c *Controller) Executions() reconcile.ObjectReconciler[*lsv1alpha1.Execution] {
	return reconcile.ObjectFunc[*lsv1alpha1.Execution](func(ctx context.Context, exec *lsv1alpha1.Execution) (reconcile.Result, error) {
		return reconcile.Result{}, c.reconcile(ctx, exec, exec.Status.ExecutionPhase.IsDeletion())
	})
}

// DeployItems returns the controller's reconciler of DeployItems.
func (c *Controller) DeployItems() reconcile.ObjectReconciler[*lsv1alpha1.DeployItem] {
	return reconcile.ObjectFunc[*lsv1alpha1.DeployItem](func(ctx context.Context, di *lsv1alpha1.DeployItem) (reconcile.Result, error) {
		return reconcile.Result{}, c.reconcile(ctx, di, di.Status.Phase.IsDeletion())
	})
}

// IsStandalone reports whether obj has no controlling owner.
func IsStandalone(obj metav1.Object) bool { return fakecluster.ControllerOf(obj) == nil }

// reconcile starts a new job on the stand-alone obj when its job has
// finished and it carries the reconcile annotation, or its deletion has
// not been handled yet (inDeletion says its phase is a deletion phase).
// Nothing happens otherwise: a running job is woken again when it
// changes.
func (c *Controller) reconcile(ctx context.Context, obj fakecluster.Object, inDeletion bool) error {
	st, ok := flow.JobStatusOf(obj)
	if !ok || !IsStandalone(obj) || st.JobID != st.JobIDFinished {
		return nil
	}
	annotated := flow.HasOperation(obj, lsv1alpha1.ReconcileOperation)
	deleting := obj.GetDeletionTimestamp() != nil && !inDeletion
	if !annotated && !deleting {
		return nil
	}
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	if kind == "" {
		kind, _ = fakecluster.KindOf(c.opts.Cluster.Scheme(), obj)
	}
	if annotated {
		ann := obj.GetAnnotations()
		delete(ann, lsv1alpha1.OperationAnnotation)
		obj.SetAnnotations(ann)
		if err := c.opts.Cluster.Update(ctx, obj); err != nil {
			return fmt.Errorf("remove reconcile annotation of %s %s: %w", kind, obj.GetName(), err)
		}
	}
	jobID := c.opts.IDs.JobID(kind, obj.GetNamespace(), obj.GetName(), string(obj.GetUID()), st.JobID)
	flow.SetJobID(obj, jobID, metav1.NewTime(c.opts.Clock.Now()))
	if err := c.opts.Cluster.UpdateStatus(ctx, obj); err != nil {
		return fmt.Errorf("start a job on %s %s: %w", kind, obj.GetName(), err)
	}
	return nil
}

// IndexName is the API server index (see AddIndexes) that holds the
// stand-alone Executions and DeployItems under the value "true".
const IndexName = "standalone"

// AddIndexes registers IndexName for Executions and DeployItems on c, so
// that finding the stand-alone ones costs nothing per owned object.
func AddIndexes(c *fakecluster.Cluster) error {
	fn := func(o fakecluster.Object) []string {
		if IsStandalone(o) {
			return []string{"true"}
		}
		return nil
	}
	if err := c.AddIndex(&lsv1alpha1.Execution{}, IndexName, fn); err != nil {
		return err
	}
	return c.AddIndex(&lsv1alpha1.DeployItem{}, IndexName, fn)
}
