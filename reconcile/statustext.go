package reconcile

import (
	"errors"
	"strings"
)

// StatusTexter is an error whose text in an object's status (lastError,
// and the events made from it) is not its Error() text. lscli's
// own errors often say more than Landscaper's (the object's name, advice
// for the user), for lscli's commands that report a whole tree; where
// Landscaper writes the same error into the object's status, StatusText is
// Landscaper's text. StatusText (the function) uses it, and so do Wrap
// and Error, so an error keeps its status text however it is wrapped.
type StatusTexter interface {
	error
	// StatusText is the error's text as the object's status shows it.
	StatusText() string
}

// StatusText returns the text err has in an object's status: err.Error(),
// in which the text of every StatusTexter in err's chain (outermost first,
// including the errors an error joins) is replaced by its StatusText. An
// err without one has its Error() text; a nil err has "".
func StatusText(err error) string {
	if err == nil {
		return ""
	}
	text := err.Error()
	walkChain(err, func(e error) {
		if st, ok := e.(StatusTexter); ok {
			text = strings.ReplaceAll(text, st.Error(), st.StatusText())
		}
	})
	return text
}

// walkChain calls f for err and every error it wraps, depth first,
// outermost first, following both Unwrap() error and Unwrap() []error.
func walkChain(err error, f func(error)) {
	for err != nil {
		f(err)
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walkChain(e, f)
			}
			return
		default:
			err = errors.Unwrap(err)
		}
	}
}

// WithStatusText returns err with text as its status text (Landscaper's
// words for it, see StatusTexter); its Error() text stays err's. A nil err
// stays nil.
func WithStatusText(err error, text string) error {
	if err == nil {
		return nil
	}
	return &statusTextError{err: err, text: text}
}

// statusTextError is an error with a status text of its own.
type statusTextError struct {
	err  error
	text string
}

func (e *statusTextError) Error() string { return e.err.Error() }

// Unwrap returns the error.
func (e *statusTextError) Unwrap() error { return e.err }

// StatusText implements StatusTexter.
func (e *statusTextError) StatusText() string { return e.text }
