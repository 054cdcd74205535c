package reconcile

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// worded is an error with lscli's long text and a shorter status text.
type worded struct{ long, short string }

func (e *worded) Error() string      { return e.long }
func (e *worded) StatusText() string { return e.short }

// An error with a status text keeps it in lastError however it is wrapped:
// with fmt.Errorf's %w, Wrap, Fatal and Terminal, in any order and any
// number of times, and with no wrapper at all. Its Error() text, outside
// the Errors, stays lscli's.
func TestStatusTextThroughWrappers(t *testing.T) {
	const long, short = "installation ns/a: no such thing (create it first)", "no such thing"
	wrappers := []struct {
		name string
		wrap func(error) error
	}{
		{"%w", func(err error) error { return fmt.Errorf("context: %w", err) }},
		{"Wrap", func(err error) error { return Wrap(err, "Op", "Reason") }},
		{"Fatal", Fatal},
		{"TerminalWithCodes", func(err error) error { return TerminalWithCodes(err, "R") }},
		{"WrapError", func(err error) error { return WrapError(err, "Op", "Reason", "it failed") }},
	}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	// Every sequence of up to three wrappers.
	var seqs [][]int
	var gen func(seq []int)
	gen = func(seq []int) {
		seqs = append(seqs, seq)
		if len(seq) == 3 {
			return
		}
		for i := range wrappers {
			gen(append(append([]int(nil), seq...), i))
		}
	}
	gen(nil)
	for _, seq := range seqs {
		var err error = &worded{long: long, short: short}
		var names []string
		for _, i := range seq {
			err = wrappers[i].wrap(err)
			names = append(names, wrappers[i].name)
		}
		name := strings.Join(names, "→")
		text := StatusText(err)
		if strings.Contains(text, long) || !strings.Contains(text, short) {
			t.Errorf("%s: StatusText = %q, want %q in place of %q", name, text, short, long)
		}
		le := LastError(nil, err, "op", "reason", now)
		if strings.Contains(le.Message, long) {
			t.Errorf("%s: lastError.message = %q has lscli's text", name, le.Message)
		}
		var e *Error
		if !errors.As(err, &e) {
			// No Error: the message is the whole status text.
			if le.Message != text {
				t.Errorf("%s: lastError.message = %q, want %q", name, le.Message, text)
			}
			if got := err.Error(); !strings.Contains(got, long) {
				t.Errorf("%s: Error() = %q lost lscli's text", name, got)
			}
		} else if strings.Contains(e.Error(), long) {
			t.Errorf("%s: Error.Error() = %q has lscli's text", name, e.Error())
		}
	}
	if StatusText(nil) != "" {
		t.Error(`StatusText(nil) != ""`)
	}
}

// Wrap's message is the status text, and the Error's text does not repeat
// the wrapped error's: Landscaper's message, once.
func TestWrapStatusText(t *testing.T) {
	err := fmt.Errorf("outer: %w", Wrap(fmt.Errorf("ctx: %w", &worded{long: "long", short: "short"}), "Op", "R"))
	if got, want := StatusText(err), "outer: Op: Op - Reason: R - Message: ctx: short"; got != want {
		t.Errorf("StatusText = %q, want %q", got, want)
	}
	le := LastError(nil, Wrap(err, "Op2", "R2"), "", "", time.Time{})
	if want := "outer: Op: Op - Reason: R - Message: ctx: short"; le.Message != want {
		t.Errorf("lastError.message = %q, want %q", le.Message, want)
	}
}

// Every StatusTexter an error joins gets its status text.
func TestStatusTextJoined(t *testing.T) {
	err := fmt.Errorf("both: %w", errors.Join(&worded{"long a", "a"}, errors.New("plain"), &worded{"long b", "b"}))
	if got, want := StatusText(err), "both: a\nplain\nb"; got != want {
		t.Errorf("StatusText = %q, want %q", got, want)
	}
}

// TestWithStatusText: WithStatusText gives an error Landscaper's words for
// the status, keeps lscli's as its Error() text, and wraps it; a nil error
// stays nil.
func TestWithStatusText(t *testing.T) {
	inner := errors.New("failed to get resource with name x (lscli took component a:1 from a.yaml, which has resources y)")
	err := WithStatusText(inner, "failed to get resource with name x")
	if err.Error() != inner.Error() || !errors.Is(err, inner) {
		t.Errorf("Error() = %q, Is(inner) = %v", err.Error(), errors.Is(err, inner))
	}
	if got := StatusText(fmt.Errorf("context: %w", err)); got != "context: failed to get resource with name x" {
		t.Errorf("StatusText = %q", got)
	}
	if WithStatusText(nil, "x") != nil {
		t.Error("WithStatusText(nil) is not nil")
	}
}
