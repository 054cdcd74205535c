package engine

import (
	"errors"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// terminalError marks an error that a retry cannot fix.
type terminalError struct {
	err    error
	reason string
	codes  []lsv1alpha1.ErrorCode
}

func (e *terminalError) Error() string { return e.err.Error() }
func (e *terminalError) Unwrap() error { return e.err }

// TerminalError marks err as fatal: the flow ends in Failed (or DeleteFailed)
// with jobIDFinished = jobID instead of being retried. Deployers return it to
// fail a deploy item without a requeue. A nil err stays nil.
func TerminalError(err error) error {
	if err == nil {
		return nil
	}
	return &terminalError{err: err, codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}}
}

// terminalErrorf is TerminalError(fmt.Errorf(...)) with a reason for lastError.
func terminalErrorf(reason string, format string, args ...any) error {
	return &terminalError{err: fmt.Errorf(format, args...), reason: reason,
		codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}}
}

// IsTerminal reports whether err, or an error it wraps, is terminal.
func IsTerminal(err error) bool {
	var t *terminalError
	return errors.As(err, &t)
}

// errorCodes returns the Landscaper error codes for err.
func errorCodes(err error) []lsv1alpha1.ErrorCode {
	var t *terminalError
	if errors.As(err, &t) {
		return t.codes
	}
	return nil
}

// NewLastError returns the status.lastError for err raised by operation at now.
// If old says the same thing, its times are kept, so a repeated error does not
// change the object: a retry that fails the same way is not progress.
func NewLastError(old *lsv1alpha1.Error, operation, reason string, err error, now time.Time) *lsv1alpha1.Error {
	if reason == "" {
		reason = operation
		var t *terminalError
		if errors.As(err, &t) && t.reason != "" {
			reason = t.reason
		}
	}
	msg := err.Error()
	if old != nil && old.Operation == operation && old.Reason == reason && old.Message == msg {
		return old
	}
	ts := metav1.NewTime(now)
	return &lsv1alpha1.Error{Operation: operation, Reason: reason, Message: msg, Codes: errorCodes(err),
		LastTransitionTime: ts, LastUpdateTime: ts}
}
