package state

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lscli/lscli/internal/safefs"
)

// openFile opens a file of the state folder for reading. A file there that
// is not a regular file (a named pipe, a socket, a device) is refused
// before it is opened: opening a named pipe waits for a writer, so lscli
// would hang instead of saying what is wrong.
func openFile(path string) (*os.File, error) {
	if err := checkRegular(path); err != nil {
		return nil, err
	}
	return os.Open(path)
}

// readFile is os.ReadFile through openFile.
func readFile(path string) ([]byte, error) {
	if err := checkRegular(path); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// checkRegular returns an error naming path when it exists and is a named
// pipe, a socket or a device (after symbolic links). A missing file, and a
// folder (which reading reports), are left to the caller.
func checkRegular(path string) error {
	info, err := os.Stat(path)
	if err != nil || info.Mode()&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeCharDevice|fs.ModeIrregular) == 0 {
		return nil
	}
	if filepath.Base(path) == lockFileName {
		// The simulation next to it is fine: 'lscli reset' would forget it
		// (and cannot take this lock either).
		return fmt.Errorf("%s is %s, not a regular file: remove it (rm %s; lscli creates the lock file again, "+
			"and the simulation in %s is kept), or pass another --state",
			show(path), safefs.ModeName(info.Mode()), show(path), show(filepath.Dir(path)))
	}
	return fmt.Errorf("%s is %s, not a regular file: lscli keeps its state in regular files; "+
		"remove it with 'lscli reset', or pass another --state", show(path), safefs.ModeName(info.Mode()))
}
