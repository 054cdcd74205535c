//go:build unix

package landscape

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lscli/lscli/internal/safefs"
)

// TestLoadRefusesWhatIsNotALandscapeFile: in a landscape folder, named
// pipes, devices and links leading outside are refused without being read
// (a named pipe would block, /dev/zero never end); links within are read.
func TestLoadRefusesWhatIsNotALandscapeFile(t *testing.T) {
	base := t.TempDir()
	dir, outside := filepath.Join(base, "landscape"), filepath.Join(base, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := obj("landscaper.gardener.cloud/v1alpha1", "Target", "t")
	for name, content := range map[string]string{filepath.Join(dir, "a.yaml"): target, filepath.Join(outside, "b.yaml"): target} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for target, link := range map[string]string{"/dev/zero": "zero.yaml", filepath.Join(outside, "b.yaml"): "secret.yaml", "a.yaml": "same.yml"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	_, err := (&Loader{}).Load("landscape")
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v, want a *LoadError", err)
	}
	got := le.Error()
	for _, want := range []string{
		"landscape/pipe.yaml: not read: it is a named pipe (FIFO), not a regular file: lscli reads only regular files",
		"landscape/secret.yaml: not read: it leads to " + filepath.ToSlash(mustReal(t, outside)) + "/b.yaml (symbolic links resolved), outside the landscape",
		"landscape/zero.yaml: not read: it leads to /dev/zero",
		// same.yml is a.yaml again: a duplicate, not a refusal.
		`landscape/same.yml: document 1: Target "t": defined twice`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if _, err := (&Loader{}).Load("landscape/pipe.yaml"); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("a named pipe named on the command line: %v", err)
	}
	// A policy that maps the outside folder allows the link.
	_, err = (&Loader{Policy: safefs.NewPolicy(0, "outside")}).Load("landscape/secret.yaml", "landscape/a.yaml")
	if err == nil || !strings.Contains(err.Error(), "defined twice") {
		t.Errorf("a link to a mapped folder: %v", err)
	}
}

// TestLoadRefusesLargeFiles: a file over the size limit is not read.
func TestLoadRefusesLargeFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("big.yaml", []byte("# "+strings.Repeat("x", 200)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := (&Loader{Policy: safefs.NewPolicy(100)}).Load("big.yaml")
	if err == nil || err.Error() != "big.yaml: not read: the file is 203 bytes, more than limits.fileSize (100): raise it in lscli.yaml if that is intended" {
		t.Fatalf("err = %v", err)
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
