package engine

import (
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// phase is the phase type of a kind with a phase flow (installations,
// executions).
type phase interface {
	~string
	IsFinal() bool
	IsFailed() bool
	IsDeletion() bool
}

// flowStatus points at the status fields that installations and executions
// share, so that the bookkeeping of their flows is written once.
type flowStatus[P phase] struct {
	phase               *P
	observedGeneration  *int64
	lastError           **lsv1alpha1.Error
	jobID               *string
	jobIDFinished       *string
	phaseTransitionTime **metav1.Time
	transitionTimes     **lsv1alpha1.TransitionTimes
}

func installationFlow(i *lsv1alpha1.Installation) flowStatus[lsv1alpha1.InstallationPhase] {
	s := &i.Status
	return flowStatus[lsv1alpha1.InstallationPhase]{&s.InstallationPhase, &s.ObservedGeneration, &s.LastError,
		&s.JobID, &s.JobIDFinished, &s.PhaseTransitionTime, &s.TransitionTimes}
}

func executionFlow(e *lsv1alpha1.Execution) flowStatus[lsv1alpha1.ExecutionPhase] {
	s := &e.Status
	return flowStatus[lsv1alpha1.ExecutionPhase]{&s.ExecutionPhase, &s.ObservedGeneration, &s.LastError,
		&s.JobID, &s.JobIDFinished, &s.PhaseTransitionTime, &s.TransitionTimes}
}

// start begins the flow of a new job in first: observedGeneration =
// generation, no lastError, transitionTimes.initTime = now.
func (s flowStatus[P]) start(first P, generation int64, now time.Time) {
	*s.observedGeneration = generation
	*s.lastError = nil
	if *s.transitionTimes == nil {
		*s.transitionTimes = &lsv1alpha1.TransitionTimes{}
	}
	ts := metav1.NewTime(now)
	(*s.transitionTimes).InitTime = &ts
	s.set(first, now)
}

// set moves to p. A phase reached without error clears lastError, as in
// Landscaper; a final phase finishes the job (jobIDFinished = jobID).
func (s flowStatus[P]) set(p P, now time.Time) {
	ts := metav1.NewTime(now)
	*s.phase = p
	*s.phaseTransitionTime = &ts
	if !p.IsFailed() {
		*s.lastError = nil
	}
	if p.IsFinal() {
		*s.jobIDFinished = *s.jobID
		if *s.transitionTimes != nil {
			(*s.transitionTimes).FinishedTime = &ts
		}
	}
}

// fail records err in lastError. A terminal error also moves to failed
// (deleteFailed while deleting) and reports true.
func (s flowStatus[P]) fail(err error, failed, deleteFailed P, now time.Time) bool {
	*s.lastError = NewLastError(*s.lastError, string(*s.phase), "", err, now)
	if !IsTerminal(err) {
		return false
	}
	if (*s.phase).IsDeletion() {
		failed = deleteFailed
	}
	s.set(failed, now)
	return true
}
