// Package terminal marks errors that a retry cannot fix. The controllers end
// a flow in Failed (or DeleteFailed) on such an error instead of repeating the
// phase, with Landscaper's error codes and a reason in status.lastError.
//
// It is a leaf package so that every part of the engine (blueprints,
// templates, data flow, deployers) can classify its errors without import
// cycles.
package terminal

import (
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// Err is a terminal error with the reason and codes for status.lastError.
type Err struct {
	err    error
	Reason string
	Codes  []lsv1alpha1.ErrorCode
}

func (e *Err) Error() string { return e.err.Error() }

// Unwrap returns the wrapped error.
func (e *Err) Unwrap() error { return e.err }

// Error marks err as terminal with code ERR_CONFIGURATION_PROBLEM. A nil err
// stays nil.
func Error(err error) error {
	if err == nil {
		return nil
	}
	return &Err{err: err, Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}}
}

// Errorf returns a terminal error with reason and code ERR_CONFIGURATION_PROBLEM.
func Errorf(reason, format string, args ...any) error {
	return &Err{err: fmt.Errorf(format, args...), Reason: reason,
		Codes: []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}}
}

// WithCodes returns a terminal error with reason and codes.
func WithCodes(err error, reason string, codes ...lsv1alpha1.ErrorCode) error {
	return &Err{err: err, Reason: reason, Codes: codes}
}

// As returns the terminal error in err's chain, or nil.
func As(err error) *Err {
	var t *Err
	if errors.As(err, &t) {
		return t
	}
	return nil
}

// Is reports whether err, or an error it wraps, is terminal.
func Is(err error) bool { return As(err) != nil }
