//go:build unix

package cmd_test

import (
	"sync"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lscli/lscli/state"
)

func init() {
	scriptCmds["mkfifo"] = mkfifo
	scriptCmds["lock-state"] = lockState
	scriptCmds["unlock-state"] = unlockState
}

// mkfifo makes named pipes: mkfifo PATH...
func mkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: mkfifo PATH...")
	}
	for _, p := range args {
		ts.Check(syscall.Mkfifo(ts.MkAbs(p), 0o644))
	}
}

// heldLocks are the state locks lock-state holds, by script; scripts run
// in parallel.
var (
	heldMu    sync.Mutex
	heldLocks = map[*testscript.TestScript]func() error{}
)

// lockState takes the lock of a state folder as another lscli would, until
// unlock-state: lock-state [FOLDER] (default .lscli).
func lockState(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: lock-state [FOLDER]")
	}
	folder := ".lscli"
	if len(args) == 1 {
		folder = args[0]
	}
	unlock, err := state.New(ts.MkAbs(folder)).Lock()
	ts.Check(err)
	heldMu.Lock()
	heldLocks[ts] = unlock
	heldMu.Unlock()
	ts.Defer(func() { _ = unlock() })
}

// unlockState releases the lock lock-state took.
func unlockState(ts *testscript.TestScript, neg bool, args []string) {
	heldMu.Lock()
	unlock, ok := heldLocks[ts]
	delete(heldLocks, ts)
	heldMu.Unlock()
	if neg || len(args) != 0 || !ok {
		ts.Fatalf("usage: unlock-state, after lock-state")
	}
	ts.Check(unlock())
}
