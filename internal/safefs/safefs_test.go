//go:build unix

package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lscli/lscli/internal/limits"
)

// tree makes a landscape folder with a blueprint whose links lead inside
// and outside it, a named pipe and a big file, and a secret outside.
func tree(t *testing.T) (landscape, outside string) {
	t.Helper()
	base := t.TempDir()
	landscape, outside = filepath.Join(base, "landscape"), filepath.Join(base, "outside")
	for _, dir := range []string{filepath.Join(landscape, "bp", "sub"), outside} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(landscape, "bp", "blueprint.yaml"), "kind: Blueprint\n")
	write(filepath.Join(landscape, "shared.tpl"), "shared\n")
	write(filepath.Join(landscape, "bp", "big.txt"), strings.Repeat("x", 2000))
	write(filepath.Join(outside, "secret"), "secret\n")
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(landscape, "bp", name)); err != nil {
			t.Fatal(err)
		}
	}
	link("../shared.tpl", "inside.tpl")
	link(filepath.Join(outside, "secret"), "outside.tpl")
	link("/dev/zero", "zero.yaml")
	link("../../outside", "outdir")
	if err := syscall.Mkfifo(filepath.Join(landscape, "bp", "fifo.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	return landscape, outside
}

func TestDir(t *testing.T) {
	landscape, _ := tree(t)
	fsys := NewPolicy(1000, landscape).Dir(filepath.Join(landscape, "bp"))
	tests := []struct {
		name, file, want string
		err              any
	}{
		{name: "regular", file: "blueprint.yaml", want: "kind: Blueprint\n"},
		{name: "link inside the landscape", file: "inside.tpl", want: "shared\n"},
		{name: "link outside", file: "outside.tpl", err: new(*OutsideError)},
		{name: "link to a device", file: "zero.yaml", err: new(*OutsideError)},
		{name: "through a linked folder", file: "outdir/secret", err: new(*OutsideError)},
		{name: "named pipe", file: "fifo.yaml", err: new(*NotRegularError)},
		{name: "too big", file: "big.txt", err: new(*limits.Error)},
		{name: "dot dot", file: "../shared.tpl", err: &fs.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := fs.ReadFile(fsys, tt.file)
			if tt.err == nil {
				if err != nil || string(data) != tt.want {
					t.Fatalf("ReadFile = %q, %v", data, err)
				}
				return
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) || pe.Path != tt.file {
				t.Fatalf("err = %v, want a *fs.PathError for %s", err, tt.file)
			}
			if target, ok := tt.err.(*error); ok {
				if !errors.Is(err, *target) {
					t.Fatalf("err = %v, want %v", err, *target)
				}
			} else if !errors.As(err, tt.err) {
				t.Fatalf("err = %v (%T), want %T", err, pe.Err, tt.err)
			}
		})
	}
}

// TestDevicesAreRefusedInsideTheRoots: even below an allowed root, a device
// is not read.
func TestDevicesAreRefusedInsideTheRoots(t *testing.T) {
	_, err := fs.ReadFile(NewPolicy(0, "/dev").Dir("/dev"), "zero")
	var nr *NotRegularError
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), "a character device, not a regular file") {
		t.Fatalf("err = %v", err)
	}
}

func TestReadDirAndStat(t *testing.T) {
	landscape, _ := tree(t)
	fsys := NewPolicy(0, landscape).Dir(landscape)
	entries, err := fs.ReadDir(fsys, "bp")
	if err != nil || len(entries) != 8 {
		t.Fatalf("ReadDir = %d entries, %v", len(entries), err)
	}
	if _, err := fs.Stat(fsys, "bp/fifo.yaml"); err == nil {
		t.Error("Stat of a named pipe succeeded")
	}
	if info, err := fs.Stat(fsys, "bp/inside.tpl"); err != nil || !info.Mode().IsRegular() {
		t.Errorf("Stat of a link inside = %v, %v", info, err)
	}
}

func TestPolicyWith(t *testing.T) {
	landscape, outside := tree(t)
	p := NewPolicy(0, landscape)
	if p.Allows(outside) || !p.With(outside).Allows(filepath.Join(outside, "secret")) || p.Allows(outside) {
		t.Error("With does not add a root, or changes the policy it was called on")
	}
	if p.Allows(landscape + "-sibling") {
		t.Error("a sibling with the root's name as prefix is allowed")
	}
}
