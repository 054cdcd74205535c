package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lscli/lscli/action"
)

// usageError is a command line that does not parse: a missing or extra
// argument, an unknown command or flag, a flag value of the wrong type. It is
// invalid input (exit 2), and Run prints the command's usage line after it.
type usageError struct {
	cmd *cobra.Command
	err *action.ExitError
}

// usagef returns a usage error of cmd.
func usagef(cmd *cobra.Command, format string, args ...any) error {
	return usage(cmd, fmt.Errorf(format, args...))
}

// usage marks err as a usage error of cmd.
func usage(cmd *cobra.Command, err error) error {
	return &usageError{cmd: cmd, err: &action.ExitError{Code: action.ExitInvalid, Err: err}}
}

func (e *usageError) Error() string { return e.err.Error() }

// Unwrap returns the error with the exit code.
func (e *usageError) Unwrap() error { return e.err }

// usageLines are what Run prints after a usage error.
func (e *usageError) usageLines() string {
	line := e.cmd.UseLine()
	if !e.cmd.HasParent() {
		line = e.cmd.Name() + " COMMAND [flags]"
	}
	return fmt.Sprintf("usage: %s\nrun '%s --help' for more\n", line, e.cmd.CommandPath())
}

// requiredArgs are the names of the arguments in the Use line of cmd that
// are not optional, e.g. ["NAME"] for "delete [KIND] NAME".
func requiredArgs(cmd *cobra.Command) []string {
	var names []string
	for _, w := range strings.Fields(cmd.Use)[1:] {
		if !strings.ContainsAny(w, "[]") {
			names = append(names, strings.Trim(w, ".|"))
		}
	}
	return names
}

// rangeArgs accepts between lo and hi arguments; hi < 0 means any number.
// A missing one is named from the Use line.
func rangeArgs(lo, hi int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < lo:
			missing := requiredArgs(cmd)
			if len(missing) > len(args) {
				missing = missing[len(args):min(lo, len(missing))]
			}
			return usagef(cmd, "missing %s", strings.Join(missing, " and "))
		case hi >= 0 && len(args) > hi:
			return usagef(cmd, "unexpected argument %q", args[hi])
		}
		return nil
	}
}

// exactArgs accepts exactly n arguments.
func exactArgs(n int) cobra.PositionalArgs { return rangeArgs(n, n) }

// maxArgs accepts up to n arguments.
func maxArgs(n int) cobra.PositionalArgs { return rangeArgs(0, n) }

// noArgs accepts none.
var noArgs = maxArgs(0)

// asUsageErrors makes every argument and flag error of root and its
// subcommands (cobra's own help and completion commands too) a usage error.
func asUsageErrors(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usage(c, flagError(err)) })
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if check := c.Args; check != nil {
			c.Args = func(c *cobra.Command, args []string) error {
				if err := check(c, args); err != nil {
					if _, ok := err.(*usageError); ok {
						return err
					}
					return usage(c, err)
				}
				return nil
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// flagTypeWords say what a flag of a type wants.
var flagTypeWords = map[string]string{"int": "an integer", "uint64": "a non-negative integer", "bool": "true or false"}

// flagError words a flag value of the wrong type as lscli's other bad
// values are worded: the flag, the value and what is wanted.
func flagError(err error) error {
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) {
		return err
	}
	want, ok := flagTypeWords[ive.GetFlag().Value.Type()]
	if !ok {
		want = "a valid " + ive.GetFlag().Value.Type()
	}
	return fmt.Errorf("invalid --%s %q: want %s", ive.GetFlag().Name, ive.GetValue(), want)
}

// unknownCommand is the root command's RunE: without arguments it shows the
// help, else the first argument is a command lscli does not have.
func unknownCommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return c.Help()
	}
	msg := fmt.Sprintf("unknown command %q", args[0])
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %q?)", s[0])
	}
	return usagef(c, "%s", msg)
}
