package cmd

import (
	"fmt"
	"io"
	"time"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

// progressAfter is how long a run goes before its progress line appears, and
// progressInterval how often the line is rewritten at most.
const (
	progressAfter    = time.Second
	progressInterval = 250 * time.Millisecond
)

// progressLine shows how far a run is on a terminal: one line on stderr,
// rewritten in place, once the run has taken progressAfter of wall time:
// steps, virtual time and the roots finished. This is the only place lscli
// reads the wall clock (now), and only to decide when to draw; the run is
// the same with or without the line.
type progressLine struct {
	w     io.Writer
	now   func() time.Time
	start time.Time
	last  time.Time
	shown bool
}

// newProgressLine starts timing a run whose line goes to w.
func newProgressLine(w io.Writer, now func() time.Time) *progressLine {
	return &progressLine{w: w, now: now, start: now()}
}

// report redraws the line with p, unless it is too early or too soon.
func (l *progressLine) report(p action.Progress) {
	t := l.now()
	if t.Sub(l.start) < progressAfter || (l.shown && t.Sub(l.last) < progressInterval) {
		return
	}
	l.last, l.shown = t, true
	finished, total := p.Roots()
	fmt.Fprintf(l.w, "\r\x1b[K%s, virtual time +%s, %d of %s finished", plural(p.Steps, "step"), p.Elapsed, finished, plural(total, "root installation"))
}

// clear removes the line, if it was drawn, before the run's summary.
func (l *progressLine) clear() {
	if l.shown {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.shown = false
	}
}

// runConfiguration is configuration(s) for a command that runs: on a
// terminal (stderr), with a progress line. Call done when the run has ended,
// before printing anything about it.
func (f *factory) runConfiguration(s *settings) (cfg *action.Configuration, done func(), err error) {
	if cfg, err = configuration(s); err != nil {
		return nil, nil, err
	}
	// -o json and -o yaml print the saved objects from their lines in the state file
	// (see report), which Save has just encoded.
	cfg.StoredObjects = s.Output == output.FormatJSON || s.Output == output.FormatYAML
	if !f.streams.IsStderrTTY() {
		return cfg, func() {}, nil
	}
	line := newProgressLine(f.streams.ErrOut, f.now)
	cfg.Progress = line.report
	return cfg, line.clear, nil
}
