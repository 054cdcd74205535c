//go:build unix

package state

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an flock on f without waiting: shared or exclusive. The
// lock belongs to the open file, so closing f releases it, and so does the
// process ending. A shared lock works on a file opened read-only.
func lockFile(f *os.File, shared bool) error {
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errWouldBlock
	}
	return err
}

// syncDir flushes the folder's entries, so that a rename into it survives a
// crash of the machine.
func syncDir(path string) error {
	dir, err := os.Open(path)
	if err != nil {
		return err
	}
	if err := dir.Sync(); err != nil {
		_ = dir.Close()
		return err
	}
	return dir.Close()
}
