package reconcile

import (
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/internal/crash"
)

// Terminal marks an error as fatal: a retry cannot fix it. The installation
// and execution controllers end a flow in Failed (or DeleteFailed) on it
// instead of repeating the phase, as Landscaper does with the "fatal" errors
// of a phase. It may carry a reason and codes for status.lastError; an Error
// it wraps (see Fatal) has its own. The deployer framework does not look at
// it: a deploy item fails only on an unrecoverable error code (see
// IsUnrecoverable), which TerminalError and TerminalErrorf add.
type Terminal struct {
	err    error
	Reason string
	Codes  []lsv1alpha1.ErrorCode
}

func (e *Terminal) Error() string { return e.err.Error() }

// Unwrap returns the wrapped error.
func (e *Terminal) Unwrap() error { return e.err }

// Fatal marks err as fatal for the phase that returned it, without adding a
// reason or codes. A nil err stays nil.
func Fatal(err error) error {
	if err == nil {
		return nil
	}
	return &Terminal{err: err}
}

// Fatalf returns a fatal error with reason and no error code, as Landscaper's
// installation errors have none.
func Fatalf(reason, format string, args ...any) error {
	return &Terminal{err: fmt.Errorf(format, args...), Reason: reason}
}

// TerminalError marks err as terminal with code ERR_CONFIGURATION_PROBLEM. A
// nil err stays nil.
func TerminalError(err error) error {
	if err == nil {
		return nil
	}
	return &Terminal{err: err, Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}}
}

// TerminalErrorf returns a terminal error with reason and code
// ERR_CONFIGURATION_PROBLEM.
func TerminalErrorf(reason, format string, args ...any) error {
	return &Terminal{err: fmt.Errorf(format, args...), Reason: reason,
		Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}}
}

// TerminalWithCodes returns a terminal error with reason and codes.
func TerminalWithCodes(err error, reason string, codes ...lsv1alpha1.ErrorCode) error {
	return &Terminal{err: err, Reason: reason, Codes: codes}
}

// AsTerminal returns the terminal error in err's chain, or nil. An error
// that carries a recovered panic (*crash.Error) is never terminal, however it
// is wrapped: it is lscli's failure, not the object's, and stops the run
// (see Loop.Run) instead of failing the object.
func AsTerminal(err error) *Terminal {
	if crash.As(err) != nil {
		return nil
	}
	t, _ := errors.AsType[*Terminal](err)
	return t
}

// IsTerminal reports whether err, or an error it wraps, is terminal.
func IsTerminal(err error) bool { return AsTerminal(err) != nil }
