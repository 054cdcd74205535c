package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// errWouldBlock is returned by lockFile when another open file holds the lock.
var errWouldBlock = errors.New("lock held elsewhere")

// LockOptions say which lock to take and how long to wait for it.
type LockOptions struct {
	// Shared takes a shared lock, for commands that only read: readers hold
	// it together, and a writer (exclusive lock) waits for them and they for
	// it. A shared lock creates nothing and needs no write access: where
	// there is no lock file yet, no lscli has written the state, so there
	// is nothing to wait for and no lock is taken.
	Shared bool
	// Timeout is how long to wait for another lscli to release the lock.
	// Zero means: do not wait.
	Timeout time.Duration
	// Waiting, when set, is called once, with the lock file's path, when
	// Lock starts to wait, so that the user learns why nothing happens.
	Waiting func(lock string)

	// sleep and now replace time.Sleep and time.Now in tests.
	sleep func(time.Duration)
	now   func() time.Time
}

// pollInterval is how often a waiting Lock tries again: flock(2) cannot
// wait with a timeout.
const pollInterval = 50 * time.Millisecond

// Lock takes the exclusive lock <folder>/lock without waiting, creating the
// folder and the lock file if they are missing. It is
// LockWith(LockOptions{}).
func (d *Dir) Lock() (unlock func() error, err error) {
	return d.LockWith(LockOptions{})
}

// LockWith takes the lock <folder>/lock as opts say. An exclusive lock
// creates the folder and the lock file if they are missing. When another
// lscli holds the lock for longer than opts.Timeout, the error wraps
// ErrInUse and reads "state .lscli is in use by another lscli (lock
// .lscli/lock)", followed by how long it waited.
//
// unlock releases the lock; call it once. The lock file stays in place
// (deleting it would let two processes lock two different files), and the
// operating system releases the lock if the process dies.
// On systems without flock (see lock_other.go) LockWith only opens the file.
func (d *Dir) LockWith(opts LockOptions) (unlock func() error, err error) {
	path := d.file(lockFileName)
	f, err := d.openLock(opts.Shared)
	if err != nil || f == nil {
		return func() error { return nil }, err
	}
	if err := d.waitLock(f, opts); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() error {
		if err := f.Close(); err != nil {
			return fmt.Errorf("unlock %s: %w", show(path), err)
		}
		return nil
	}, nil
}

// openLock opens the lock file: for a shared lock read-only, and nil when
// it does not exist; for an exclusive one creating it and its folder.
func (d *Dir) openLock(shared bool) (*os.File, error) {
	path := d.file(lockFileName)
	if shared {
		f, err := openFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("open lock: %w", err)
		}
		return f, nil
	}
	if err := os.MkdirAll(d.dir(), 0o755); err != nil {
		return nil, fmt.Errorf("create state folder: %w", err)
	}
	if err := checkRegular(path); err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	return f, nil
}

// waitLock locks f, trying again until opts.Timeout has passed.
func (d *Dir) waitLock(f *os.File, opts LockOptions) error {
	sleep, now := opts.sleep, opts.now
	if sleep == nil {
		sleep = time.Sleep
	}
	if now == nil {
		now = time.Now
	}
	path := d.file(lockFileName)
	var deadline time.Time
	for {
		err := lockFile(f, opts.Shared)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errWouldBlock) {
			return fmt.Errorf("lock %s: %w", show(path), err)
		}
		if deadline.IsZero() {
			deadline = now().Add(opts.Timeout)
			if opts.Timeout > 0 && opts.Waiting != nil {
				opts.Waiting(show(path))
			}
		}
		if !now().Before(deadline) {
			return d.inUse(opts.Timeout)
		}
		sleep(min(pollInterval, deadline.Sub(now())))
	}
}

// inUse is the error of a lock that another lscli kept for longer than
// waited.
func (d *Dir) inUse(waited time.Duration) error {
	err := fmt.Errorf("state %s is %w (lock %s)", show(d.dir()), ErrInUse, show(d.file(lockFileName)))
	if waited > 0 {
		err = fmt.Errorf("%w: gave up after waiting %s (--lock-timeout)", err, waited)
	}
	return err
}
