package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the streams a command uses. Commands write data to Out and
// progress or status messages to ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY  bool
	stdoutTTY bool
	stderrTTY bool
}

// System returns the process's standard streams, with TTY flags detected
// from the file descriptors. Only cmd.Main may call it.
func System() *IOStreams {
	return &IOStreams{
		In:        os.Stdin,
		Out:       os.Stdout,
		ErrOut:    os.Stderr,
		stdinTTY:  isTerminal(os.Stdin),
		stdoutTTY: isTerminal(os.Stdout),
		stderrTTY: isTerminal(os.Stderr),
	}
}

// Test returns streams backed by buffers, and the buffers: in is read as
// standard input, out and errOut collect what was written. No stream is a
// terminal until a Set*TTY method says so.
func Test() (streams *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// IsStdinTTY reports whether In is a terminal.
func (s *IOStreams) IsStdinTTY() bool { return s.stdinTTY }

// SetStdinTTY overrides whether In counts as a terminal.
func (s *IOStreams) SetStdinTTY(isTTY bool) { s.stdinTTY = isTTY }

// IsStdoutTTY reports whether Out is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// SetStdoutTTY overrides whether Out counts as a terminal, e.g. in tests.
func (s *IOStreams) SetStdoutTTY(isTTY bool) { s.stdoutTTY = isTTY }

// IsStderrTTY reports whether ErrOut is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// SetStderrTTY overrides whether ErrOut counts as a terminal.
func (s *IOStreams) SetStderrTTY(isTTY bool) { s.stderrTTY = isTTY }

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}
