package reconcile

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// Error is Landscaper's error model (its LsError): an operation, a reason, a
// message and error codes, possibly wrapping the error that caused it. Its
// text is "Op: <op> - Reason: <reason> - Message: <message>", and Landscaper
// often passes that text on as the message of the next wrapper, so what a
// user sees in status.lastError is often nested. Package
// github.com/gardener/landscaper/apis/errors has the same type, but it reads
// the wall clock; this one is deterministic, and status.lastError is built
// from it with UpdatedError and LastError on the virtual clock.
type Error struct {
	Operation string
	Reason    string
	Message   string
	Codes     []lsv1alpha1.ErrorCode
	err       error
}

// NewError returns an Error that wraps nothing.
func NewError(operation, reason, message string, codes ...lsv1alpha1.ErrorCode) *Error {
	return &Error{Operation: operation, Reason: reason, Message: message, Codes: codes}
}

// WrapError returns an Error that wraps err (which may be nil). Its codes are
// collected together with those of err (see CollectCodes).
func WrapError(err error, operation, reason, message string, codes ...lsv1alpha1.ErrorCode) *Error {
	return &Error{Operation: operation, Reason: reason, Message: message, Codes: codes, err: err}
}

// Wrap wraps err with operation and reason, with err's text as the message,
// as Landscaper does at nearly every call site: its status text (see
// StatusText), which is Landscaper's where lscli's error words it its own
// way. A nil err stays nil.
func Wrap(err error, operation, reason string, codes ...lsv1alpha1.ErrorCode) error {
	if err == nil {
		return nil
	}
	return WrapError(err, operation, reason, StatusText(err), codes...)
}

// Build returns err unchanged when it already holds an Error, and otherwise
// wraps it with operation and reason (Landscaper's BuildLsErrorOrNil). A nil
// err stays nil.
func Build(err error, operation, reason string) error {
	if _, ok := errors.AsType[*Error](err); err == nil || ok {
		return err
	}
	return Wrap(err, operation, reason)
}

// Error returns "Op: <op> - Reason: <reason> - Message: <message>"; the
// wrapped error's status text (see StatusText) is appended to the message
// unless it already ends with it. Like Landscaper's, the text is all in the
// words of the objects' status.
func (e *Error) Error() string {
	msg := e.Message
	if e.err != nil {
		inner := StatusText(e.err)
		switch {
		case msg == "":
			msg = inner
		case !strings.HasSuffix(msg, inner):
			msg = msg + ": " + inner
		}
	}
	return fmt.Sprintf("Op: %s - Reason: %s - Message: %s", e.Operation, e.Reason, msg)
}

// Unwrap returns the wrapped error.
func (e *Error) Unwrap() error { return e.err }

// CollectCodes returns the error codes of every Error (and terminal error)
// in err's chain, innermost first, as Landscaper collects them.
func CollectCodes(err error) []lsv1alpha1.ErrorCode {
	if err == nil {
		return nil
	}
	codes := CollectCodes(errors.Unwrap(err))
	switch e := err.(type) {
	case *Error:
		codes = append(codes, e.Codes...)
	case *Terminal:
		codes = append(codes, e.Codes...)
	}
	return codes
}

// HasCode reports whether err's chain carries code.
func HasCode(err error, code lsv1alpha1.ErrorCode) bool {
	return slices.Contains(CollectCodes(err), code)
}

// IsUnrecoverable reports whether err carries one of Landscaper's
// unrecoverable error codes (lsv1alpha1.UnrecoverableErrorCodes): the
// deployer library fails a deploy item on those, and retries it on any
// other error.
func IsUnrecoverable(err error) bool {
	for _, c := range CollectCodes(err) {
		if slices.Contains(lsv1alpha1.UnrecoverableErrorCodes, c) {
			return true
		}
	}
	return false
}

// WithWriteID wraps err, a refused write, as Landscaper's read_write_layer
// returns it (errorWithWriteID in pkg/utils/read_write_layer/write.go):
// operation errorWithWriteID, reason write, and the message "write
// operation <writeID> failed with <err>".
func WithWriteID(err error, writeID string) error {
	return WrapError(err, "errorWithWriteID", "write", fmt.Sprintf("write operation %s failed with %s", writeID, err))
}
