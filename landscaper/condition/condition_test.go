package condition

import (
	"reflect"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestSet(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	t1, t2 := t0.Add(time.Minute), t0.Add(2*time.Minute)
	at := func(tm time.Time) metav1.Time { return metav1.NewTime(tm) }
	other := lsv1alpha1.Condition{Type: "Other", Status: lsv1alpha1.ConditionTrue, Reason: "R", Message: "M"}

	// A new condition is appended, initialised at now and then updated:
	// both times are now.
	conds := Set([]lsv1alpha1.Condition{other}, "A", lsv1alpha1.ConditionTrue, "Done", "all done", t0)
	want := lsv1alpha1.Condition{Type: "A", Status: lsv1alpha1.ConditionTrue, Reason: "Done", Message: "all done",
		LastTransitionTime: at(t0), LastUpdateTime: at(t0)}
	if len(conds) != 2 || !reflect.DeepEqual(conds[0], other) || !reflect.DeepEqual(conds[1], want) {
		t.Fatalf("new condition: got %+v", conds)
	}
	// The same again later changes nothing, not even lastUpdateTime.
	conds = Set(conds, "A", lsv1alpha1.ConditionTrue, "Done", "all done", t1)
	if !reflect.DeepEqual(conds[1], want) {
		t.Fatalf("unchanged condition: got %+v, want %+v", conds[1], want)
	}
	// Another message with the same status moves lastUpdateTime only.
	conds = Set(conds, "A", lsv1alpha1.ConditionTrue, "Done", "done again", t1)
	want.Message, want.LastUpdateTime = "done again", at(t1)
	if !reflect.DeepEqual(conds[1], want) {
		t.Fatalf("new message: got %+v, want %+v", conds[1], want)
	}
	// Another status moves both, in place.
	conds = Set(conds, "A", lsv1alpha1.ConditionFalse, "Broken", "it broke", t2)
	want = lsv1alpha1.Condition{Type: "A", Status: lsv1alpha1.ConditionFalse, Reason: "Broken", Message: "it broke",
		LastTransitionTime: at(t2), LastUpdateTime: at(t2)}
	if len(conds) != 2 || !reflect.DeepEqual(conds[1], want) {
		t.Fatalf("new status: got %+v, want %+v", conds, want)
	}
}
