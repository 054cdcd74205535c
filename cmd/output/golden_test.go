package output

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// updateGolden reports whether golden files are to be rewritten. It reads
// the environment while the test runs, not at init, so that a test binary
// can be told either way.
func updateGolden() bool {
	v := os.Getenv("LSCLI_UPDATE")
	return v != "" && v != "0"
}

// checkGolden compares got with testdata/<name>.golden, or rewrites the file
// when LSCLI_UPDATE=1. ANSI escape sequences are written as the text \x1b, so
// that color changes show up in diffs.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	got = escapeSeqs(got)
	if updateGolden() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("update golden file: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (LSCLI_UPDATE=1 go test creates it): %v", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (LSCLI_UPDATE=1 go test rewrites it):\n%s", path, lineDiff(string(want), got))
	}
}

// escapeSeqs makes escape sequences visible.
func escapeSeqs(s string) string {
	return strings.ReplaceAll(s, "\x1b", `\x1b`)
}

// lineDiff lists the lines that differ, enough to read a golden mismatch.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || i >= len(w) || i >= len(g) {
			fmt.Fprintf(&b, "line %d:\n\t-%s\n\t+%s\n", i+1, wl, gl)
		}
	}
	return b.String()
}

// colorStyles are styles with color on, as cmd builds them.
func colorStyles() Styles { return NewStyles(NewRenderer(io.Discard, true)) }

// plainStyles are styles with color off, as cmd builds them.
func plainStyles() Styles { return NewStyles(NewRenderer(io.Discard, false)) }

// noEscapes fails the test when plain output holds an escape sequence.
func noEscapes(t *testing.T, out string) {
	t.Helper()
	if strings.Contains(out, "\x1b") {
		t.Errorf("plain output contains escape sequences:\n%s", escapeSeqs(out))
	}
}
