package deployer

// deadlineError marks the error a deployer's wait ended in at the item's
// progressing timeout (see AtDeadline).
type deadlineError struct{ err error }

func (e *deadlineError) Error() string { return e.err.Error() }
func (e *deadlineError) Unwrap() error { return e.err }

// AtDeadline marks err as the error that an action which waited until the
// item's progressing timeout ended in, such as helm's wait for a release's
// objects or hooks. Landscaper's deployer library records such an error as
// the item's lastError, and its next reconcile, at once, fails the item
// with the progressing timeout; the framework records both, in that order.
// The deployer returns the marked error as it is (the mark is taken off by
// SplitDeadline). A nil err stays nil.
func AtDeadline(err error) error {
	if err == nil {
		return nil
	}
	return &deadlineError{err: err}
}

// SplitDeadline takes the mark of AtDeadline off err, and reports whether
// it was there.
func SplitDeadline(err error) (error, bool) {
	if d, ok := err.(*deadlineError); ok {
		return d.err, true
	}
	return err, false
}
