package state

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadLinesSplitsAsSplitLines(t *testing.T) {
	long := strings.Repeat("x", readBlock+3) // a line across blocks
	var big bytes.Buffer
	for i := 0; big.Len() < 3*readBlock; i++ {
		big.WriteString(strings.Repeat("y", i%700))
		if i%3 == 0 {
			big.WriteString("\r")
		}
		big.WriteString("\n")
	}
	for name, content := range map[string]string{
		"empty":            "",
		"one line":         "{}",
		"newline at end":   "a\nb\n",
		"no newline":       "a\nb",
		"crlf":             "a\r\nb\r\n",
		"empty lines":      "\n\n\na\n\n",
		"line over blocks": "a\n" + long + "\nb",
		"many blocks":      big.String(),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			data, lines, err := readLines(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != content {
				t.Fatalf("data differs from the file: %d bytes, want %d", len(data), len(content))
			}
			if want := splitLines([]byte(content)); !reflect.DeepEqual(lines, want) && !(len(lines) == 0 && len(want) == 0) {
				t.Errorf("got %d lines, splitLines gives %d", len(lines), len(want))
			}
		})
	}
}

func TestReadLinesMissingFile(t *testing.T) {
	if _, _, err := readLines(filepath.Join(t.TempDir(), "none")); !os.IsNotExist(err) {
		t.Errorf("err %v, want one for a missing file", err)
	}
}
