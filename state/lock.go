package state

import (
	"errors"
	"fmt"
	"os"
)

// errWouldBlock is returned by lockFile when another open file holds the lock.
var errWouldBlock = errors.New("lock held elsewhere")

// Lock takes the exclusive lock <folder>/lock, creating the folder and the
// lock file if they are missing. It does not wait: when another lscli holds
// the lock, the error wraps ErrInUse and reads
// "state .lscli is in use by another lscli (lock .lscli/lock)".
//
// unlock releases the lock; call it once. The lock file stays in place
// (deleting it would let two processes lock two different files), and the
// operating system releases the lock if the process dies.
// On systems without flock (see lock_other.go) Lock only creates the file.
func (d *Dir) Lock() (unlock func() error, err error) {
	if err := os.MkdirAll(d.dir(), 0o755); err != nil {
		return nil, fmt.Errorf("create state folder: %w", err)
	}
	path := d.file(lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	if err := lockFile(f); err != nil {
		_ = f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("state %s is %w (lock %s)", show(d.dir()), ErrInUse, show(path))
		}
		return nil, fmt.Errorf("lock %s: %w", show(path), err)
	}
	return func() error {
		if err := f.Close(); err != nil {
			return fmt.Errorf("unlock %s: %w", show(path), err)
		}
		return nil
	}, nil
}
