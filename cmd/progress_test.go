package cmd

import (
	"strings"
	"testing"
	"time"

	"github.com/lscli/lscli/action"
)

// TestProgressLine: nothing in the first second, then a line rewritten in
// place at most every progressInterval, and cleared at the end.
func TestProgressLine(t *testing.T) {
	var b strings.Builder
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newProgressLine(&b, func() time.Time { return now })
	p := action.Progress{Steps: 64, Elapsed: 90 * time.Second}
	l.report(p)
	now = now.Add(500 * time.Millisecond)
	l.report(p)
	if b.Len() != 0 {
		t.Fatalf("drawn before a second: %q", b.String())
	}
	now = now.Add(600 * time.Millisecond)
	l.report(p)
	now = now.Add(100 * time.Millisecond)
	l.report(action.Progress{Steps: 128})
	want := "\r\x1b[K64 steps, virtual time +1m30s, 0 of 0 root installations finished"
	if b.String() != want {
		t.Fatalf("after 1.1s: %q, want %q", b.String(), want)
	}
	now = now.Add(progressInterval)
	l.report(action.Progress{Steps: 128, Elapsed: 2 * time.Minute})
	l.clear()
	want += "\r\x1b[K128 steps, virtual time +2m0s, 0 of 0 root installations finished\r\x1b[K"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
