package state

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DefaultPath is the state folder, relative to the working directory, that
// lscli uses when neither --state nor LSCLI_STATE names another.
const DefaultPath = ".lscli"

// Names of the files in the state folder.
const (
	stateFileName = "state.json"
	lockFileName  = "lock"
	// tempPrefix starts the name of a state file being written. A crash
	// during Save can leave one behind; Save and Remove ignore or delete it.
	tempPrefix = stateFileName + ".tmp-"
)

// ErrNoState is wrapped by Load when the folder or its state file does not
// exist yet: nothing has been simulated. Test for it with errors.Is.
var ErrNoState = errors.New("no state yet")

// ErrInUse is wrapped by Lock when another process holds the lock.
var ErrInUse = errors.New("in use by another lscli")

// Dir is a state folder. The zero value is the folder DefaultPath.
//
// A Dir does not lock by itself: a command calls Lock first and keeps the
// lock while it runs Load, simulates and runs Save, so that a second lscli
// cannot interleave.
type Dir struct {
	// Path is the folder, relative to the working directory or absolute.
	// Empty means DefaultPath. Error messages show it as given, with forward
	// slashes.
	Path string

	// createTemp opens the temporary file Save writes. Nil means
	// os.CreateTemp. Tests replace it to inject write failures.
	createTemp func(dir, pattern string) (tempFile, error)
	// reusedLines is how many object lines the last Save copied from the
	// file it replaced, for tests.
	reusedLines int
	// reusedEvents is reusedLines for event lines.
	reusedEvents int
	// copiedBytes is how many bytes the last Save copied from the file it
	// replaced as ranges of lines (see fileWriter), for tests.
	copiedBytes int64
	// previous are the lines of the state file as Load read it, one
	// element a line, or as Save wrote it last: Save copies lines only from
	// that very file (see previousFile). Nil when Load had to read the
	// file as a whole.
	previous *fileLines
	// objectLineNos are the line numbers of the objects the last Load
	// returned, when the file has one element a line (see ObjectError).
	objectLineNos []int
	// saved is where the last Save put each object in the file, for
	// SavedObjects; nil before a Save, after a Load and after a failed Save.
	saved *savedLayout
}

// tempFile is the part of *os.File that Save uses.
type tempFile interface {
	io.Writer
	Name() string
	Sync() error
	Close() error
}

// New returns the state folder at path; empty means DefaultPath.
func New(path string) *Dir {
	return &Dir{Path: path}
}

// dir returns the folder path.
func (d *Dir) dir() string {
	if d.Path == "" {
		return DefaultPath
	}
	return d.Path
}

// file returns the path of a file in the folder.
func (d *Dir) file(name string) string {
	return filepath.Join(d.dir(), name)
}

// show formats a path for messages: forward slashes, as given otherwise.
func show(path string) string {
	return filepath.ToSlash(path)
}

// Remove deletes the state: the state file, the lock file and temporary files
// left by an interrupted Save, then the folder itself if nothing else is in
// it. Files lscli did not write are kept, and so is then the folder. A
// missing folder is not an error.
func (d *Dir) Remove() error {
	entries, err := os.ReadDir(d.dir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove state %s: %w", show(d.dir()), err)
	}
	kept := 0
	for _, e := range entries {
		if !isStateFile(e.Name()) {
			kept++
			continue
		}
		if err := os.Remove(d.file(e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove state: %w", err)
		}
	}
	if kept > 0 {
		return nil
	}
	if err := os.Remove(d.dir()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove state: %w", err)
	}
	return nil
}

// isStateFile reports whether name is a file lscli keeps in the folder.
func isStateFile(name string) bool {
	return name == stateFileName || name == lockFileName || strings.HasPrefix(name, tempPrefix)
}

// Exists reports whether the folder holds a saved simulation. It creates
// nothing and takes no lock.
func (d *Dir) Exists() (bool, error) {
	_, err := os.Stat(d.file(stateFileName))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("state %s: %w", show(d.dir()), err)
}
