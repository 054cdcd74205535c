package action

import (
	"context"

	"github.com/lscli/lscli/state"
)

// Reset forgets the simulation: `lscli reset` removes the state folder.
type Reset struct {
	cfg *Configuration
}

// NewReset returns the reset action over cfg.
func NewReset(cfg *Configuration) *Reset { return &Reset{cfg: cfg} }

// Run removes the state folder, holding its lock while it does.
func (a *Reset) Run(_ context.Context) error {
	dir := state.New(a.cfg.StatePath)
	unlock, err := dir.Lock()
	if err != nil {
		return err
	}
	defer func() { _ = unlock() }()
	return dir.Remove()
}
