package action

import (
	"errors"
	"fmt"

	"github.com/lscli/lscli/internal/crash"
)

// Exit codes: part of the CLI contract (see docs/cli.md).
const (
	// ExitOK: every root the command touched is Succeeded (or gone, for delete).
	ExitOK = 0
	// ExitBug: lscli itself failed (I/O, a bug).
	ExitBug = 1
	// ExitInvalid: invalid input; nothing in the state changed.
	ExitInvalid = 2
	// ExitFailed: the run finished and a root is Failed or DeleteFailed.
	ExitFailed = 3
	// ExitUnfinished: the run stopped before every root finished.
	ExitUnfinished = 4
)

// ExitError carries an exit code. The command line prints Err (when set) and
// exits with Code.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

// Unwrap returns the wrapped error.
func (e *ExitError) Unwrap() error { return e.Err }

// Invalid marks err as invalid input (exit 2). A nil err stays nil.
func Invalid(err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: ExitInvalid, Err: err}
}

// Invalidf is Invalid(fmt.Errorf(...)).
func Invalidf(format string, args ...any) error {
	return Invalid(fmt.Errorf(format, args...))
}

// SilentExit returns an error that exits with code and prints nothing more:
// the command has already said what happened. ExitOK gives nil.
func SilentExit(code int) error {
	if code == ExitOK {
		return nil
	}
	return &ExitError{Code: code}
}

// ExitCodeOf returns the exit code for err: ExitOK for nil, ExitBug for a
// recovered panic (see package crash) wherever it is in the chain, the code
// of an ExitError in its chain, else ExitBug.
func ExitCodeOf(err error) int {
	if err == nil {
		return ExitOK
	}
	if crash.As(err) != nil {
		return ExitBug
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitBug
}
