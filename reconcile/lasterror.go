package reconcile

import (
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NewLastError returns the status.lastError for err raised by operation at
// now. An empty reason means the terminal error's reason, else operation.
// If old says the same thing, its times are kept, so a repeated error does not
// change the object: a retry that fails the same way is not progress.
func NewLastError(old *lsv1alpha1.Error, operation, reason string, err error, now time.Time) *lsv1alpha1.Error {
	if reason == "" {
		reason = operation
		if t := AsTerminal(err); t != nil && t.Reason != "" {
			reason = t.Reason
		}
	}
	msg := err.Error()
	if old != nil && old.Operation == operation && old.Reason == reason && old.Message == msg {
		return old
	}
	ts := metav1.NewTime(now)
	var codes []lsv1alpha1.ErrorCode
	if t := AsTerminal(err); t != nil {
		codes = t.Codes
	}
	return &lsv1alpha1.Error{Operation: operation, Reason: reason, Message: msg, Codes: codes,
		LastTransitionTime: ts, LastUpdateTime: ts}
}
