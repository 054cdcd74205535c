package engine

import (
	"fmt"
	"sort"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

// jobStatus is the part of status that Installations, Executions and
// DeployItems share and the timeline reports.
type jobStatus struct {
	Phase, JobID, JobIDFinished string
}

// jobStatusOf returns the job status of obj, or false for kinds without one.
func jobStatusOf(obj fakecluster.Object) (jobStatus, bool) {
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		return jobStatus{string(o.Status.InstallationPhase), o.Status.JobID, o.Status.JobIDFinished}, true
	case *lsv1alpha1.Execution:
		return jobStatus{string(o.Status.ExecutionPhase), o.Status.JobID, o.Status.JobIDFinished}, true
	case *lsv1alpha1.DeployItem:
		return jobStatus{string(o.Status.Phase), o.Status.JobID, o.Status.JobIDFinished}, true
	}
	return jobStatus{}, false
}

// timelineEntries turns one cluster change into timeline entries, in a fixed
// order: spec, annotations, deletion, job start, phase, job end.
func timelineEntries(now time.Time, ev fakecluster.Event) []Event {
	obj := ev.New
	base := Event{Time: now, Kind: ev.Kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}
	st, hasJob := jobStatusOf(obj)
	base.JobID = st.JobID
	add := func(out []Event, t EventType, phase, msg string) []Event {
		e := base
		e.Type, e.Phase, e.Message = t, phase, msg
		return append(out, e)
	}
	switch ev.Type {
	case fakecluster.Added:
		return add(nil, EventCreated, "", "")
	case fakecluster.Deleted:
		return add(nil, EventDeleted, "", "")
	}
	var out []Event
	old := ev.Old
	if obj.GetGeneration() != old.GetGeneration() {
		out = add(out, EventSpecChanged, "", fmt.Sprintf("generation %d", obj.GetGeneration()))
	}
	for _, msg := range annotationChanges(old.GetAnnotations(), obj.GetAnnotations()) {
		out = add(out, EventAnnotated, "", msg)
	}
	if old.GetDeletionTimestamp() == nil && obj.GetDeletionTimestamp() != nil {
		out = add(out, EventDeletionRequested, "", "")
	}
	if !hasJob {
		return out
	}
	prev, _ := jobStatusOf(old)
	if st.JobID != prev.JobID && st.JobID != "" {
		out = add(out, EventJobStarted, "", "")
	}
	if st.Phase != prev.Phase {
		out = add(out, EventPhaseChanged, st.Phase, "")
	}
	if st.JobIDFinished != prev.JobIDFinished && st.JobIDFinished == st.JobID && st.JobID != "" {
		out = add(out, EventJobFinished, "", "")
	}
	return out
}

// annotationChanges describes added, changed and removed annotations, sorted
// by key. The reconcile-time annotation is bookkeeping and left out.
func annotationChanges(old, cur map[string]string) []string {
	var out []string
	for k, v := range cur {
		if k == lsv1alpha1.ReconcileTimestampAnnotation {
			continue
		}
		if ov, ok := old[k]; !ok || ov != v {
			out = append(out, fmt.Sprintf("%s=%s", k, v))
		}
	}
	for k, v := range old {
		if _, ok := cur[k]; !ok && k != lsv1alpha1.ReconcileTimestampAnnotation {
			out = append(out, fmt.Sprintf("%s=%s removed", k, v))
		}
	}
	sort.Strings(out)
	return out
}
