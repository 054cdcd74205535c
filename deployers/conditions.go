package deployers

import (
	"reflect"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/deployers/deployer"
)

// mergeConditions creates or updates conds in di's status.conditions.
func (f *Framework) mergeConditions(di *lsv1alpha1.DeployItem, conds []deployer.Condition) {
	for _, c := range conds {
		di.Status.Conditions = setCondition(di.Status.Conditions, c, f.Clock.Now())
	}
}

// setCondition creates or updates the condition of c's type in conds, with
// Landscaper's rules for its times: a new condition starts as Unknown, so it
// gets both times; lastUpdateTime moves when anything changes,
// lastTransitionTime when the status does.
func setCondition(conds []lsv1alpha1.Condition, c deployer.Condition, now time.Time) []lsv1alpha1.Condition {
	ts := metav1.NewTime(now)
	for i := range conds {
		if conds[i].Type == c.Type {
			conds[i] = updatedCondition(conds[i], c, ts)
			return conds
		}
	}
	initial := lsv1alpha1.Condition{Type: c.Type, Status: lsv1alpha1.ConditionUnknown, Reason: "ConditionInitialized",
		Message:            "The condition has been initialized but its semantic check has not been performed yet.",
		LastTransitionTime: ts}
	return append(conds, updatedCondition(initial, c, ts))
}

func updatedCondition(old lsv1alpha1.Condition, c deployer.Condition, ts metav1.Time) lsv1alpha1.Condition {
	next := lsv1alpha1.Condition{Type: old.Type, Status: c.Status, Reason: c.Reason, Message: c.Message,
		LastTransitionTime: old.LastTransitionTime, LastUpdateTime: old.LastUpdateTime}
	if !reflect.DeepEqual(old, next) {
		next.LastUpdateTime = ts
	}
	if old.Status != c.Status {
		next.LastTransitionTime = ts
	}
	return next
}
