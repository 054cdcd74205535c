package flow

import (
	"context"
	"fmt"
	"sort"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// HasOperation reports whether obj carries the operation annotation op.
func HasOperation(obj metav1.Object, op lsv1alpha1.Operation) bool {
	return obj.GetAnnotations()[lsv1alpha1.OperationAnnotation] == string(op)
}

// Annotate sets the annotation key=value on obj and updates it, unless it is
// set already.
func Annotate(ctx context.Context, c fakecluster.Writer, obj fakecluster.Object, key, value string) error {
	ann := obj.GetAnnotations()
	if ann[key] == value {
		return nil
	}
	if ann == nil {
		ann = map[string]string{}
	}
	ann[key] = value
	obj.SetAnnotations(ann)
	return c.Update(ctx, obj)
}

// JobStatus is the part of status that Installations, Executions and
// DeployItems share.
type JobStatus struct {
	Phase, JobID, JobIDFinished string
}

// JobStatusOf returns the job status of obj, or false for kinds without one.
func JobStatusOf(obj fakecluster.Object) (JobStatus, bool) {
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		return JobStatus{string(o.Status.InstallationPhase), o.Status.JobID, o.Status.JobIDFinished}, true
	case *lsv1alpha1.Execution:
		return JobStatus{string(o.Status.ExecutionPhase), o.Status.JobID, o.Status.JobIDFinished}, true
	case *lsv1alpha1.DeployItem:
		return JobStatus{string(o.Status.Phase), o.Status.JobID, o.Status.JobIDFinished}, true
	}
	return JobStatus{}, false
}

// SetJobID gives obj a new job ID, which is what makes it start its flow,
// with transitionTimes.triggerTime = now (and jobIDGenerationTime for deploy
// items).
func SetJobID(obj fakecluster.Object, jobID string, now metav1.Time) {
	times := &lsv1alpha1.TransitionTimes{TriggerTime: &now}
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		o.Status.JobID, o.Status.TransitionTimes = jobID, times
	case *lsv1alpha1.Execution:
		o.Status.JobID, o.Status.TransitionTimes = jobID, times
	case *lsv1alpha1.DeployItem:
		o.Status.JobID, o.Status.TransitionTimes = jobID, times
		o.Status.JobIDGenerationTime = &now
	}
}

// SortedKeys returns the keys of m in order.
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SetController makes owner the controller of obj with controller-runtime's
// SetControllerReference, as the mutate function of each of Landscaper's
// CreateOrUpdate writes does: an object nothing controls is taken over, one
// another object controls (controllerutil.AlreadyOwnedError) is left as it
// is. That error comes back as Landscaper's read_write_layer gives it for
// the write writeID ("write operation <writeID> failed with ..."), with
// context, when not empty, before the cause as the mutate function wraps
// it.
func SetController(owner, obj metav1.Object, scheme *runtime.Scheme, writeID, context string) error {
	err := controllerutil.SetControllerReference(owner, obj, scheme)
	if err == nil {
		return nil
	}
	if context != "" {
		err = fmt.Errorf("%s: %w", context, err)
	}
	return reconcile.WithWriteID(err, writeID)
}
