package state

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestLock(t *testing.T) {
	d := tempDir(t)
	unlock, err := d.Lock()
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to open files, so a second open in this process
	// contends like another lscli would.
	_, err = New(".lscli").Lock()
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("second Lock: want ErrInUse, got %v", err)
	}
	if want := "state .lscli is in use by another lscli (lock .lscli/lock)"; err.Error() != want {
		t.Fatalf("message:\n got %q\nwant %q", err, want)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	unlock, err = d.Lock()
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
}

func TestLockCreatesFolder(t *testing.T) {
	d := New(filepath.Join(t.TempDir(), "a", "b"))
	unlock, err := d.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unlock() }()
	if _, err := os.Stat(d.file(lockFileName)); err != nil {
		t.Fatal(err)
	}
}

func TestLockFolderIsFile(t *testing.T) {
	d := tempDir(t)
	if err := os.WriteFile(".lscli", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := d.Lock()
	requireErrorContains(t, err, "create state folder: mkdir .lscli: not a directory")
}

func TestRemove(t *testing.T) {
	tests := []struct {
		name  string
		files []string // created in the folder before Remove; nil: no folder
		kept  []string // left afterwards; nil: folder gone
	}{
		{name: "no folder"},
		{name: "empty folder", files: []string{}},
		{name: "state", files: []string{stateFileName, lockFileName, tempPrefix + "123"}},
		{name: "foreign file kept", files: []string{stateFileName, "notes.txt"}, kept: []string{"notes.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tempDir(t)
			if tt.files != nil {
				if err := os.Mkdir(d.dir(), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, name := range tt.files {
				if err := os.WriteFile(d.file(name), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := d.Remove(); err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(d.dir())
			if tt.kept == nil {
				if !errors.Is(statErr, os.ErrNotExist) {
					t.Fatalf("folder still there: %v", statErr)
				}
				return
			}
			if names := listDir(t, d); !slices.Equal(names, tt.kept) {
				t.Fatalf("folder holds %q, want %q", names, tt.kept)
			}
		})
	}
}

func TestRemoveWhileLocked(t *testing.T) {
	d := tempDir(t)
	unlock, err := d.Lock()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Save(sampleSnapshot(), testScheme()); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove(); err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Load(testScheme()); !errors.Is(err, ErrNoState) {
		t.Fatalf("after Remove: want ErrNoState, got %v", err)
	}
}
