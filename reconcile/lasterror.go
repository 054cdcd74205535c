package reconcile

import (
	"errors"
	"slices"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// maxLastErrors is how many errors a deploy item keeps in status.lastErrors.
const maxLastErrors = 5

// UpdatedError returns the status.lastError that replaces old, with
// Landscaper's rules for its times: a new error has both times now; an error
// that says the same as old (operation, reason, message, codes) is old
// itself, so a retry that fails the same way changes nothing;
// lastUpdateTime moves to now when anything differs, lastTransitionTime only
// when the operation does.
func UpdatedError(old *lsv1alpha1.Error, operation, reason, message string, codes []lsv1alpha1.ErrorCode, now time.Time) *lsv1alpha1.Error {
	ts := metav1.NewTime(now)
	if len(codes) == 0 {
		codes = nil
	}
	if old == nil {
		return &lsv1alpha1.Error{Operation: operation, Reason: reason, Message: message, Codes: codes,
			LastTransitionTime: ts, LastUpdateTime: ts}
	}
	next := &lsv1alpha1.Error{Operation: operation, Reason: reason, Message: message, Codes: codes,
		LastTransitionTime: old.LastTransitionTime, LastUpdateTime: old.LastUpdateTime}
	if len(old.Codes) == 0 && len(codes) == 0 {
		next.Codes = old.Codes
	}
	if sameError(old, next) {
		return old
	}
	next.LastUpdateTime = ts
	if old.Operation != operation {
		next.LastTransitionTime = ts
	}
	return next
}

// sameError reports whether a and b are equal as reflect.DeepEqual tells
// them: the same texts and codes (nil and empty codes apart), and times with
// the same fields (reflect.DeepEqual would also take two equal Locations
// for one; UpdatedError compares times it copied, with the same Location).
func sameError(a, b *lsv1alpha1.Error) bool {
	return a.Operation == b.Operation && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastTransitionTime == b.LastTransitionTime && a.LastUpdateTime == b.LastUpdateTime &&
		slices.Equal(a.Codes, b.Codes) && (a.Codes == nil) == (b.Codes == nil)
}

// LastError returns the status.lastError that err makes of old at now (nil
// for a nil err). Operation, reason and message come from the outermost
// Error in err's chain and the codes from all of them (CollectCodes), as
// Landscaper's TryUpdateLsError does. An err without an Error gets what
// Landscaper's call site would wrap it with: its status text (see
// StatusText) is the message,
// operation is op, and the reason is that of a terminal error, else reason.
func LastError(old *lsv1alpha1.Error, err error, op, reason string, now time.Time) *lsv1alpha1.Error {
	if err == nil {
		return nil
	}
	var operation, message string
	if e, ok := errors.AsType[*Error](err); ok {
		operation, reason, message = e.Operation, e.Reason, e.Message
	} else {
		operation, message = op, StatusText(err)
		if t := AsTerminal(err); t != nil && t.Reason != "" {
			reason = t.Reason
		}
	}
	return UpdatedError(old, operation, reason, message, CollectCodes(err), now)
}

// SetDeployItemError records e as a deploy item's lastError as Landscaper's
// deployer library does: the first error of a job is kept in firstError,
// and every recorded error is appended to lastErrors, which keeps the last
// five. Recording the same error again (e is then the old lastError) appends
// an equal entry, so the list settles once it holds five of them.
func SetDeployItemError(st *lsv1alpha1.DeployItemStatus, e *lsv1alpha1.Error) {
	st.LastError = e
	if st.FirstError == nil {
		st.FirstError = e
	}
	if e == nil {
		return
	}
	st.LastErrors = append(st.LastErrors, e)
	if len(st.LastErrors) > maxLastErrors {
		st.LastErrors = st.LastErrors[len(st.LastErrors)-maxLastErrors:]
	}
}

// ClearDeployItemErrors clears lastError, firstError and lastErrors, as a
// deployer does when it picks up a new job.
func ClearDeployItemErrors(st *lsv1alpha1.DeployItemStatus) {
	st.LastError, st.FirstError, st.LastErrors = nil, nil, nil
}
