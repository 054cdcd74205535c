package flow

import (
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/reconcile"
)

// Phase is the phase type of a kind with a phase flow (installations,
// executions).
type Phase interface {
	~string
	IsFinal() bool
	IsFailed() bool
	IsDeletion() bool
}

// Status points at the status fields that installations and executions
// share, so that the bookkeeping of their flows is written once.
type Status[P Phase] struct {
	Phase               *P
	ObservedGeneration  *int64
	LastError           **lsv1alpha1.Error
	JobID               *string
	JobIDFinished       *string
	PhaseTransitionTime **metav1.Time
	TransitionTimes     **lsv1alpha1.TransitionTimes
}

// InstallationStatus returns the flow fields of i.
func InstallationStatus(i *lsv1alpha1.Installation) Status[lsv1alpha1.InstallationPhase] {
	s := &i.Status
	return Status[lsv1alpha1.InstallationPhase]{&s.InstallationPhase, &s.ObservedGeneration, &s.LastError,
		&s.JobID, &s.JobIDFinished, &s.PhaseTransitionTime, &s.TransitionTimes}
}

// ExecutionStatus returns the flow fields of e.
func ExecutionStatus(e *lsv1alpha1.Execution) Status[lsv1alpha1.ExecutionPhase] {
	s := &e.Status
	return Status[lsv1alpha1.ExecutionPhase]{&s.ExecutionPhase, &s.ObservedGeneration, &s.LastError,
		&s.JobID, &s.JobIDFinished, &s.PhaseTransitionTime, &s.TransitionTimes}
}

// Start begins the flow of a new job in first: observedGeneration =
// generation, transitionTimes.initTime = now. The last job's lastError stays
// until the next phase is written, as in Landscaper.
func (s Status[P]) Start(first P, generation int64, now time.Time) {
	*s.ObservedGeneration = generation
	if *s.TransitionTimes == nil {
		*s.TransitionTimes = &lsv1alpha1.TransitionTimes{}
	}
	ts := metav1.NewTime(now)
	(*s.TransitionTimes).InitTime = &ts
	s.setPhase(first, now)
}

// Set moves to p. A phase reached without error clears lastError, as in
// Landscaper; a final phase finishes the job (jobIDFinished = jobID,
// transitionTimes.finishedTime).
func (s Status[P]) Set(p P, now time.Time) {
	if !p.IsFailed() {
		*s.LastError = nil
	}
	s.setPhase(p, now)
	if p.IsFinal() {
		*s.JobIDFinished = *s.JobID
		ts := metav1.NewTime(now)
		if *s.TransitionTimes == nil {
			*s.TransitionTimes = &lsv1alpha1.TransitionTimes{}
		}
		(*s.TransitionTimes).FinishedTime = &ts
	}
}

// setPhase sets p; phaseTransitionTime moves only when the phase changes.
func (s Status[P]) setPhase(p P, now time.Time) {
	if *s.Phase != p || *s.PhaseTransitionTime == nil {
		ts := metav1.NewTime(now)
		*s.PhaseTransitionTime = &ts
	}
	*s.Phase = p
}

// Fail records err in lastError (see reconcile.LastError; lscli's own errors
// get the phase as operation). A fatal error also moves to failed
// (deleteFailed while deleting) and reports true.
func (s Status[P]) Fail(err error, failed, deleteFailed P, now time.Time) bool {
	*s.LastError = reconcile.LastError(*s.LastError, err, string(*s.Phase), string(*s.Phase), now)
	if !reconcile.IsTerminal(err) {
		return false
	}
	if (*s.Phase).IsDeletion() {
		failed = deleteFailed
	}
	s.Set(failed, now)
	return true
}

// RecordedWait reports whether err, the result of a phase, is a wait that
// lastError already records: an error that is neither fatal nor retried
// (ERR_NO_RETRY, Landscaper's "not finished yet") and that Fail would record
// as old itself (see reconcile.UpdatedError). Handling the phase again then
// changes nothing and waits for the next change. phase is the current one.
func RecordedWait(old *lsv1alpha1.Error, err error, phase string, now time.Time) bool {
	if old == nil || err == nil || reconcile.IsTerminal(err) || !reconcile.HasCode(err, lsv1alpha1.ErrorNoRetry) {
		return false
	}
	return reconcile.LastError(old, err, phase, phase, now) == old
}

// SetWaitTime sets transitionTimes.waitTime to now: Landscaper does so when an
// installation or execution has triggered its children and starts to wait
// for them (→ Progressing, → Deleting).
func SetWaitTime(tt **lsv1alpha1.TransitionTimes, now time.Time) {
	if *tt == nil {
		*tt = &lsv1alpha1.TransitionTimes{}
	}
	ts := metav1.NewTime(now)
	(*tt).WaitTime = &ts
}
