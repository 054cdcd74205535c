//go:build unix

package spiff

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lscli/lscli/internal/safefs"
)

// TestFileSystemSkipsPipesAndRefusesLinksOutside: copying a blueprint
// folder for Spiff leaves out a named pipe unread (reading it would block
// while lscli holds the state's lock) and fails on a link outside.
func TestFileSystemSkipsPipesAndRefusesLinksOutside(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pipe.yaml", filepath.Join(dir, "link-to-pipe.yaml")); err != nil {
		t.Fatal(err)
	}
	files, err := FileSystem(safefs.NewPolicy(0, dir).Dir(dir), 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(Request{Name: "main", FS: files, Template: []byte(`{"a": "(( read(\"/values.yaml\").a ))"}`)})
	if err != nil || string(res.Output) != "a: 1\n" {
		t.Fatalf("Execute = %v, %v", res, err)
	}
	if _, err := files.Stat("/pipe.yaml"); err == nil {
		t.Error("the named pipe was copied")
	}
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "host.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := FileSystem(safefs.NewPolicy(0, dir).Dir(dir), 0); err == nil || !strings.Contains(err.Error(), "host.txt: it leads to /etc/hostname") {
		t.Errorf("a link outside: err = %v", err)
	}
}
