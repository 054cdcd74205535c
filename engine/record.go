package engine

import (
	"fmt"
	"reflect"
	"sort"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/state"
)

// appendTimelineEntries appends to out the timeline entries of one cluster
// change, in a fixed order: spec, annotations, deletion, job start, phase,
// job end.
func appendTimelineEntries(out []state.Event, now time.Time, ev fakecluster.Event) []state.Event {
	obj := ev.New
	base := state.Event{Time: now, Kind: ev.Kind, Namespace: obj.GetNamespace(), Name: obj.GetName()}
	st, hasJob := flow.JobStatusOf(obj)
	base.JobID = st.JobID
	add := func(out []state.Event, t state.EventType, phase, msg string) []state.Event {
		e := base
		e.Type, e.Phase, e.Message = t, phase, msg
		return append(out, e)
	}
	switch ev.Type {
	case fakecluster.Added:
		return add(out, state.EventCreated, "", "")
	case fakecluster.Deleted:
		return add(out, state.EventDeleted, "", "")
	}
	old := ev.Old
	// Marking an object for deletion also moves its generation on (see
	// fakecluster's Delete); that is the deletion, not a spec change.
	deletionRequested := old.GetDeletionTimestamp() == nil && obj.GetDeletionTimestamp() != nil
	switch {
	case obj.GetGeneration() != old.GetGeneration() && !deletionRequested:
		out = add(out, state.EventSpecChanged, "", fmt.Sprintf("generation %d", obj.GetGeneration()))
	case !fakecluster.HasGeneration(obj.GetObjectKind().GroupVersionKind().GroupKind()) && !fakecluster.SpecEqual(old, obj):
		// A Secret or ConfigMap has no generation to show its change by.
		out = add(out, state.EventSpecChanged, "", "")
	}
	for _, msg := range annotationChanges(old.GetAnnotations(), obj.GetAnnotations()) {
		out = add(out, state.EventAnnotated, "", msg)
	}
	if deletionRequested {
		out = add(out, state.EventDeletionRequested, "", "")
	}
	if !hasJob {
		return out
	}
	prev, _ := flow.JobStatusOf(old)
	if st.JobID != prev.JobID && st.JobID != "" {
		out = add(out, state.EventJobStarted, "", "")
	}
	if st.Phase != prev.Phase {
		out = add(out, state.EventPhaseChanged, st.Phase, "")
	}
	if st.JobIDFinished != prev.JobIDFinished && st.JobIDFinished == st.JobID && st.JobID != "" {
		out = add(out, state.EventJobFinished, "", "")
	}
	return out
}

// annotationChanges describes added, changed and removed annotations, sorted
// by key. The reconcile-time annotation is bookkeeping and left out.
func annotationChanges(old, cur map[string]string) []string {
	if sameMap(old, cur) {
		return nil // a status write shares the stored metadata
	}
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

// sameMap reports whether a and b are one map (or both nil).
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
