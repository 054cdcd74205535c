package cmd

import "github.com/lscli/lscli/action"

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
	comps, err := componentsSettings(s, charts)
	if err != nil {
		return nil, err
	}
	shoots, err := removedShoots(s)
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
		Components:    comps,
		RemovedShoots: shoots,
		Version:       version,
	}, nil
}

// runOptions are the bounds of a run from --until and --max-steps.
func runOptions(s *settings) action.RunOptions {
	return action.RunOptions{Until: s.Until, MaxSteps: s.MaxSteps}
}
