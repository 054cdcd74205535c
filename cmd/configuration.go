package cmd

import (
	"fmt"

	"github.com/lscli/lscli/action"
)

// configuration builds what the actions share from the merged settings.
func configuration(s *settings) (*action.Configuration, error) {
	blueprints, err := blueprintResolver(s)
	if err != nil {
		return nil, err
	}
	charts, err := chartMap(s)
	if err != nil {
		return nil, err
	}
	return &action.Configuration{
		StatePath:     s.State,
		Seed:          s.Seed,
		Reseed:        s.SeedSet,
		StartTime:     s.StartTime,
		PickupTimeout: s.PickupTimeout,
		Deployers:     s.deployer,
		Blueprints:    blueprints,
		Charts:        charts,
		Version:       version,
		LockTimeout:   s.LockTimeout,
		OnLockWait:    lockNotice(s),
	}, nil
}

// lockNotice tells on stderr that a command waits for another lscli.
func lockNotice(s *settings) func(string) {
	if s.errOut == nil {
		return nil
	}
	return func(lock string) {
		fmt.Fprintf(s.errOut, "waiting up to %s for another lscli to release %s (--lock-timeout)\n", s.LockTimeout, lock)
	}
}

// runOptions are the bounds of a run from --until and --max-steps.
func runOptions(s *settings) action.RunOptions {
	return action.RunOptions{Until: s.Until, MaxSteps: s.MaxSteps}
}
