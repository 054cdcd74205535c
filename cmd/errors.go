package cmd

import "github.com/lscli/lscli/action"

// invalid marks err as invalid input (exit 2).
func invalid(err error) error { return action.Invalid(err) }

// invalidf is invalid(fmt.Errorf(...)).
func invalidf(format string, args ...any) error { return action.Invalidf(format, args...) }

// exitCode returns the exit code for err.
func exitCode(err error) int { return action.ExitCodeOf(err) }
