package fakecluster

import (
	"bytes"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/internal/semantic"
)

// landscaperStatusEqual compares the statuses of two Landscaper objects of
// the kinds the controllers write most, field by field, as semantic
// equality does (nil and empty slices alike, times by their instant in UTC,
// bytes with bytes.Equal), without reflection: a big run writes statuses a
// few hundred thousand times, a fifth of them unchanged, and the reflective
// comparison was the most of a write's time. ok is false for other kinds.
// TestStatusEqualIsSemantic checks it against semantic.DeepEqual, field by
// field, so that a field added to these types is not missed.
func landscaperStatusEqual(a, b Object) (equal, ok bool) {
	switch x := a.(type) {
	case *lsv1alpha1.Installation:
		if y, isInst := b.(*lsv1alpha1.Installation); isInst {
			return installationStatusEqual(&x.Status, &y.Status), true
		}
	case *lsv1alpha1.Execution:
		if y, isExec := b.(*lsv1alpha1.Execution); isExec {
			return executionStatusEqual(&x.Status, &y.Status), true
		}
	case *lsv1alpha1.DeployItem:
		if y, isItem := b.(*lsv1alpha1.DeployItem); isItem {
			return deployItemStatusEqual(&x.Status, &y.Status), true
		}
	}
	return false, false
}

func installationStatusEqual(a, b *lsv1alpha1.InstallationStatus) bool {
	return a.ObservedGeneration == b.ObservedGeneration &&
		a.JobID == b.JobID && a.JobIDFinished == b.JobIDFinished &&
		a.InstallationPhase == b.InstallationPhase && a.ImportsHash == b.ImportsHash &&
		sliceEqual(a.Conditions, b.Conditions, conditionEqual) &&
		ptrEqual(a.LastError, b.LastError, errorEqual) &&
		ptrEqual(a.SubInstCache, b.SubInstCache, subInstCacheEqual) &&
		ptrEqual(a.ExecutionReference, b.ExecutionReference, plainEqual[lsv1alpha1.ObjectReference]) &&
		ptrEqual(a.PhaseTransitionTime, b.PhaseTransitionTime, timeEqual) &&
		ptrEqual(a.AutomaticReconcileStatus, b.AutomaticReconcileStatus, automaticReconcileStatusEqual) &&
		sliceEqual(a.DependentsToTrigger, b.DependentsToTrigger, plainEqual[lsv1alpha1.DependentToTrigger]) &&
		ptrEqual(a.TransitionTimes, b.TransitionTimes, transitionTimesEqual)
}

func executionStatusEqual(a, b *lsv1alpha1.ExecutionStatus) bool {
	return a.ObservedGeneration == b.ObservedGeneration &&
		a.JobID == b.JobID && a.JobIDFinished == b.JobIDFinished && a.ExecutionPhase == b.ExecutionPhase &&
		sliceEqual(a.Conditions, b.Conditions, conditionEqual) &&
		ptrEqual(a.LastError, b.LastError, errorEqual) &&
		ptrEqual(a.ExportReference, b.ExportReference, plainEqual[lsv1alpha1.ObjectReference]) &&
		ptrEqual(a.DeployItemCache, b.DeployItemCache, deployItemCacheEqual) &&
		ptrEqual(a.PhaseTransitionTime, b.PhaseTransitionTime, timeEqual) &&
		ptrEqual(a.TransitionTimes, b.TransitionTimes, transitionTimesEqual)
}

func deployItemStatusEqual(a, b *lsv1alpha1.DeployItemStatus) bool {
	return a.Phase == b.Phase && a.ObservedGeneration == b.ObservedGeneration &&
		a.JobID == b.JobID && a.JobIDFinished == b.JobIDFinished && a.Deployer == b.Deployer &&
		sliceEqual(a.Conditions, b.Conditions, conditionEqual) &&
		ptrEqual(a.LastError, b.LastError, errorEqual) &&
		sliceEqual(a.LastErrors, b.LastErrors, func(x, y **lsv1alpha1.Error) bool { return ptrEqual(*x, *y, errorEqual) }) &&
		ptrEqual(a.FirstError, b.FirstError, errorEqual) &&
		ptrEqual(a.LastReconcileTime, b.LastReconcileTime, timeEqual) &&
		ptrEqual(a.ProviderStatus, b.ProviderStatus, rawExtensionEqual) &&
		ptrEqual(a.ExportReference, b.ExportReference, plainEqual[lsv1alpha1.ObjectReference]) &&
		ptrEqual(a.JobIDGenerationTime, b.JobIDGenerationTime, timeEqual) &&
		ptrEqual(a.DeployerPhase, b.DeployerPhase, plainEqual[string]) &&
		ptrEqual(a.TransitionTimes, b.TransitionTimes, transitionTimesEqual)
}

func conditionEqual(a, b *lsv1alpha1.Condition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		timeEqual(&a.LastTransitionTime, &b.LastTransitionTime) && timeEqual(&a.LastUpdateTime, &b.LastUpdateTime) &&
		sliceEqual(a.Codes, b.Codes, plainEqual[lsv1alpha1.ErrorCode])
}

func errorEqual(a, b *lsv1alpha1.Error) bool {
	return a.Operation == b.Operation && a.Reason == b.Reason && a.Message == b.Message &&
		timeEqual(&a.LastTransitionTime, &b.LastTransitionTime) && timeEqual(&a.LastUpdateTime, &b.LastUpdateTime) &&
		sliceEqual(a.Codes, b.Codes, plainEqual[lsv1alpha1.ErrorCode])
}

func subInstCacheEqual(a, b *lsv1alpha1.SubInstCache) bool {
	return sliceEqual(a.ActiveSubs, b.ActiveSubs, plainEqual[lsv1alpha1.SubNamePair]) &&
		sliceEqual(a.OrphanedSubs, b.OrphanedSubs, plainEqual[string])
}

func deployItemCacheEqual(a, b *lsv1alpha1.DeployItemCache) bool {
	return sliceEqual(a.ActiveDIs, b.ActiveDIs, plainEqual[lsv1alpha1.DiNamePair]) &&
		sliceEqual(a.OrphanedDIs, b.OrphanedDIs, plainEqual[string])
}

func automaticReconcileStatusEqual(a, b *lsv1alpha1.AutomaticReconcileStatus) bool {
	return a.Generation == b.Generation && a.NumberOfReconciles == b.NumberOfReconciles && a.OnFailed == b.OnFailed &&
		timeEqual(&a.LastReconcileTime, &b.LastReconcileTime)
}

func transitionTimesEqual(a, b *lsv1alpha1.TransitionTimes) bool {
	return ptrEqual(a.TriggerTime, b.TriggerTime, timeEqual) && ptrEqual(a.InitTime, b.InitTime, timeEqual) &&
		ptrEqual(a.WaitTime, b.WaitTime, timeEqual) && ptrEqual(a.FinishedTime, b.FinishedTime, timeEqual)
}

// rawExtensionEqual compares the raw bytes as bytes.Equal does; a decoded
// Object, which the API server never holds, goes to semantic equality.
func rawExtensionEqual(a, b *runtime.RawExtension) bool {
	if a.Object != nil || b.Object != nil {
		return semantic.DeepEqual(a, b)
	}
	return bytes.Equal(a.Raw, b.Raw)
}

// timeEqual is equality.Semantic's function for metav1.Time.
func timeEqual(a, b *metav1.Time) bool { return a.UTC() == b.UTC() }

// plainEqual is == for types whose semantic equality is ==.
func plainEqual[T comparable](a, b *T) bool { return *a == *b }

// ptrEqual is semantic equality of pointers: both nil, or both set and
// their values equal by eq.
func ptrEqual[T any](a, b *T, eq func(a, b *T) bool) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a == b || eq(a, b)
}

// sliceEqual is semantic equality of slices: nil and empty alike, else the
// same length and the elements equal by eq.
func sliceEqual[T any](a, b []T, eq func(a, b *T) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eq(&a[i], &b[i]) {
			return false
		}
	}
	return true
}
