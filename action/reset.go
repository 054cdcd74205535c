package action

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/lscli/lscli/state"
)

// Reset forgets the simulation: `lscli reset` removes the state folder.
type Reset struct {
	cfg *Configuration
}

// NewReset returns the reset action over cfg.
func NewReset(cfg *Configuration) *Reset { return &Reset{cfg: cfg} }

// Run removes the state folder, holding its lock while it does. A missing
// folder is left missing.
func (a *Reset) Run(_ context.Context) error {
	dir := state.New(a.cfg.StatePath)
	folder := a.cfg.StatePath
	if folder == "" {
		folder = state.DefaultPath
	}
	if _, err := os.Stat(folder); errors.Is(err, fs.ErrNotExist) {
		return nil // nothing to forget; creating the folder to lock it would leave it behind
	}
	unlock, err := dir.LockWith(state.LockOptions{Timeout: a.cfg.LockTimeout, Waiting: a.cfg.OnLockWait})
	if err != nil {
		return err
	}
	defer func() { _ = unlock() }()
	return dir.Remove()
}
