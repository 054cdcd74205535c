package reconcile

import (
	"reflect"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/randfill"
)

// TestSameErrorIsDeepEqual: sameError tells errors apart as reflect.DeepEqual
// does, for random errors, each field changed on its own, and nil and empty
// codes.
func TestSameErrorIsDeepEqual(t *testing.T) {
	f := randfill.NewWithSeed(7).NilChance(0.2).NumElements(0, 3)
	now := metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	changes := []func(e *lsv1alpha1.Error){
		func(e *lsv1alpha1.Error) { e.Operation += "x" },
		func(e *lsv1alpha1.Error) { e.Reason += "x" },
		func(e *lsv1alpha1.Error) { e.Message += "x" },
		func(e *lsv1alpha1.Error) { e.LastTransitionTime = metav1.NewTime(now.Add(time.Second)) },
		func(e *lsv1alpha1.Error) { e.LastUpdateTime = metav1.NewTime(now.Add(time.Second)) },
		func(e *lsv1alpha1.Error) { e.Codes = append(e.Codes, lsv1alpha1.ErrorTimeout) },
		func(e *lsv1alpha1.Error) {
			if e.Codes == nil {
				e.Codes = []lsv1alpha1.ErrorCode{}
			} else if len(e.Codes) == 0 {
				e.Codes = nil
			}
		},
		func(e *lsv1alpha1.Error) {}, // no change
	}
	for i := 0; i < 2000; i++ {
		a := &lsv1alpha1.Error{}
		f.Fill(a)
		a.LastTransitionTime, a.LastUpdateTime = now, now
		b := a.DeepCopy()
		changes[i%len(changes)](b)
		if i%10 == 9 {
			f.Fill(b)
		}
		if got, want := sameError(a, b), reflect.DeepEqual(a, b); got != want {
			t.Fatalf("sameError(%+v, %+v) = %v, reflect.DeepEqual %v", a, b, got, want)
		}
	}
}
