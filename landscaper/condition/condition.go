// Package condition sets the status conditions of Landscaper objects as
// Landscaper's helpers do (GetOrInitCondition, UpdatedCondition,
// MergeConditions in apis/core/v1alpha1/helper), with the time given
// instead of the wall clock.
package condition

import (
	"reflect"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Set creates or updates the condition of type typ in conds and returns
// the list. A new condition is appended and starts as Landscaper
// initialises one (Unknown, stamped with now), so it gets both times;
// lastUpdateTime moves when anything changes, lastTransitionTime when the
// status does.
func Set(conds []lsv1alpha1.Condition, typ lsv1alpha1.ConditionType, status lsv1alpha1.ConditionStatus, reason, message string, now time.Time) []lsv1alpha1.Condition {
	ts := metav1.NewTime(now)
	for i := range conds {
		if conds[i].Type == typ {
			conds[i] = updated(conds[i], status, reason, message, ts)
			return conds
		}
	}
	initial := lsv1alpha1.Condition{Type: typ, Status: lsv1alpha1.ConditionUnknown, Reason: "ConditionInitialized",
		Message:            "The condition has been initialized but its semantic check has not been performed yet.",
		LastTransitionTime: ts}
	return append(conds, updated(initial, status, reason, message, ts))
}

// updated is Landscaper's UpdatedCondition.
func updated(old lsv1alpha1.Condition, status lsv1alpha1.ConditionStatus, reason, message string, ts metav1.Time) lsv1alpha1.Condition {
	next := lsv1alpha1.Condition{Type: old.Type, Status: status, Reason: reason, Message: message,
		LastTransitionTime: old.LastTransitionTime, LastUpdateTime: old.LastUpdateTime}
	if !reflect.DeepEqual(old, next) {
		next.LastUpdateTime = ts
	}
	if old.Status != status {
		next.LastTransitionTime = ts
	}
	return next
}
