package crash

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// Own is the component name of lscli's own code.
const Own = "lscli"

// BugReportHint ends the message of a panic in lscli's own code.
const BugReportHint = "this is a bug in lscli: please report it at https://github.com/lscli/lscli/issues " +
	"with the command, the input and the stack below"

// Error is a recovered panic.
type Error struct {
	// Component is what panicked: "spiff", "sprig", "text/template", "helm",
	// or Own for lscli itself.
	Component string
	// Value is what was passed to panic.
	Value any
	// Stack is the stack of the goroutine that panicked.
	Stack []byte
	// Object says what lscli was working on, e.g. `installation default/app:
	// deployExecution "main"`; "" when not known.
	Object string
}

// Error says where and what panicked and, for lscli's own panics, asks for
// a bug report.
func (e *Error) Error() string {
	where := ""
	if e.Object != "" {
		where = e.Object + ": "
	}
	if e.Component == Own {
		return fmt.Sprintf("%slscli panicked: %v (%s)", where, e.Value, BugReportHint)
	}
	return fmt.Sprintf("%s%s panicked: %v (a bug in %s, not in lscli or your input: "+
		"lscli stopped and saved nothing; avoid the construct or report it to %s's authors)", where, e.Component, e.Value, e.Component, e.Component)
}

// Unwrap returns the panic value when it is an error, such as a runtime
// error, so that errors.Is and errors.As see it.
func (e *Error) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Recover, deferred, turns a panic into an *Error of component stored in
// *err. A panic that already is an *Error (recovered deeper and re-raised)
// is kept as it is.
func Recover(component string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	*err = FromPanic(component, r)
}

// FromPanic makes the *Error for the value r recovered from a panic of
// component. Call it in the deferred function that recovered, so that the
// stack is the panicking goroutine's.
func FromPanic(component string, r any) *Error {
	if ce, ok := r.(*Error); ok {
		return ce
	}
	return &Error{Component: component, Value: r, Stack: debug.Stack()}
}

// As returns the *Error in err's chain, or nil.
func As(err error) *Error {
	ce, _ := errors.AsType[*Error](err) // no target on the heap, as errors.As puts it
	return ce
}
