//go:build unix

package state

import (
	"errors"
	"os"
	"testing"
	"time"
)

// fakeTime is a clock that sleep moves, for waiting without waiting.
type fakeTime struct {
	t      time.Time
	slept  time.Duration
	onWait func()
}

func (f *fakeTime) now() time.Time { return f.t }
func (f *fakeTime) sleep(d time.Duration) {
	f.t = f.t.Add(d)
	f.slept += d
	if f.onWait != nil {
		f.onWait()
	}
}

func TestSharedLockCreatesNothing(t *testing.T) {
	d := tempDir(t)
	unlock, err := d.LockWith(LockOptions{Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d.dir()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a shared lock created the state folder: %v", err)
	}
}

func TestSharedLocksOnAReadOnlyFolder(t *testing.T) {
	d := tempDir(t)
	unlock, err := d.Lock()
	if err != nil {
		t.Fatal(err)
	}
	_ = unlock()
	if err := os.Chmod(d.dir(), 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(d.dir(), 0o755) })
	if err := os.Chmod(d.file(lockFileName), 0o444); err != nil {
		t.Fatal(err)
	}
	r1, err := d.LockWith(LockOptions{Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = r1() }()
	// Readers share the lock.
	r2, err := New(".lscli").LockWith(LockOptions{Shared: true})
	if err != nil {
		t.Fatalf("second reader: %v", err)
	}
	_ = r2()
}

// TestLockWaits: a command waits for the lock, says so once, and takes it
// when the holder lets go; it gives up after the timeout.
func TestLockWaits(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(map[bool]string{false: "exclusive", true: "shared"}[shared], func(t *testing.T) {
			d := tempDir(t)
			holder, err := d.Lock()
			if err != nil {
				t.Fatal(err)
			}
			var told []string
			ft := &fakeTime{t: time.Unix(0, 0)}
			ft.onWait = func() {
				if ft.slept >= 200*time.Millisecond && holder != nil {
					_ = holder()
					holder = nil
				}
			}
			unlock, err := New(".lscli").LockWith(LockOptions{Shared: shared, Timeout: 5 * time.Second,
				Waiting: func(lock string) { told = append(told, lock) }, sleep: ft.sleep, now: ft.now})
			if err != nil {
				t.Fatal(err)
			}
			_ = unlock()
			if len(told) != 1 || told[0] != ".lscli/lock" {
				t.Errorf("told %q, want once .lscli/lock", told)
			}
			if ft.slept != 200*time.Millisecond {
				t.Errorf("waited %s, want 200ms", ft.slept)
			}
		})
	}
}

func TestLockGivesUp(t *testing.T) {
	d := tempDir(t)
	holder, err := d.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder() }()
	ft := &fakeTime{t: time.Unix(0, 0)}
	_, err = New(".lscli").LockWith(LockOptions{Shared: true, Timeout: 3 * time.Second, sleep: ft.sleep, now: ft.now})
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("want ErrInUse, got %v", err)
	}
	if want := "state .lscli is in use by another lscli (lock .lscli/lock): gave up after waiting 3s (--lock-timeout)"; err.Error() != want {
		t.Errorf("message:\n got %q\nwant %q", err, want)
	}
	if ft.slept != 3*time.Second {
		t.Errorf("waited %s, want 3s", ft.slept)
	}
}
