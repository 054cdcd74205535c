package engine

import (
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/engine/terminal"
)

// TerminalError marks err as fatal: the flow ends in Failed (or DeleteFailed)
// with jobIDFinished = jobID instead of being retried. Deployers return it to
// fail a deploy item without a requeue. A nil err stays nil.
func TerminalError(err error) error { return terminal.Error(err) }

// terminalErrorf is TerminalError(fmt.Errorf(...)) with a reason for lastError.
func terminalErrorf(reason string, format string, args ...any) error {
	return terminal.Errorf(reason, format, args...)
}

// IsTerminal reports whether err, or an error it wraps, is terminal.
func IsTerminal(err error) bool { return terminal.Is(err) }

// NewLastError returns the status.lastError for err raised by operation at now.
// If old says the same thing, its times are kept, so a repeated error does not
// change the object: a retry that fails the same way is not progress.
func NewLastError(old *lsv1alpha1.Error, operation, reason string, err error, now time.Time) *lsv1alpha1.Error {
	if reason == "" {
		reason = operation
		if t := terminal.As(err); t != nil && t.Reason != "" {
			reason = t.Reason
		}
	}
	msg := err.Error()
	if old != nil && old.Operation == operation && old.Reason == reason && old.Message == msg {
		return old
	}
	ts := metav1.NewTime(now)
	var codes []lsv1alpha1.ErrorCode
	if t := terminal.As(err); t != nil {
		codes = t.Codes
	}
	return &lsv1alpha1.Error{Operation: operation, Reason: reason, Message: msg, Codes: codes,
		LastTransitionTime: ts, LastUpdateTime: ts}
}
