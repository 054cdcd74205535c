package cmd

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/internal/safefs"
)

// configuration builds what the actions share from the merged settings.
//
// lscli reads the landscape's files only below the working directory, the
// folders and files the config file maps (and the landscape an action is
// given): see package safefs.
func configuration(s *settings) (*action.Configuration, error) {
	charts, err := chartMap(s)
	if err != nil {
		return nil, err
	}
	folders, err := blueprintsConfig.paths(s)
	if err != nil {
		return nil, err
	}
	reads := safefs.NewPolicy(s.Limits.FileSize, ".").With(folders...).With(slices.Collect(maps.Values(charts))...)
	blueprints, err := blueprintResolver(s, reads)
	if err != nil {
		return nil, err
	}
	comps, err := componentsSettings(s, charts)
	if err != nil {
		return nil, err
	}
	shoots, err := removedShoots(s)
	if err != nil {
		return nil, err
	}
	var configPath string
	if s.config != nil {
		if configPath, err = filepath.Abs(s.config.path); err != nil {
			return nil, fmt.Errorf("config file %s: %w", s.config.path, err)
		}
	}
	return &action.Configuration{
		StatePath:     s.State,
		ConfigFile:    configPath,
		Seed:          s.Seed,
		Reseed:        s.SeedSet,
		StartTime:     s.StartTime,
		PickupTimeout: s.PickupTimeout,
		Deployers:     s.deployer,
		Blueprints:    blueprints,
		Charts:        charts,
		Components:    comps,
		RemovedShoots: shoots,
		Version:       version,
		Reads:         reads,
		Limits:        s.Limits,
		Stdin:         s.stdin,
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
