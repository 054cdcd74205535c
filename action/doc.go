// Package action holds the logic of each action a user can take with lscli,
// one file per action: reconcile, interrupt, delete, trigger, render,
// validate, get, tree, events, reset. The actions share one Configuration
// (where the state is, how a new simulation starts, how deploy items are
// served); each returns a result value that the command line prints, and
// results that stand for an outcome say which exit code they mean
// (ExitCode). Errors that are the user's input carry exit code 2 (Invalid).
//
// An action that runs the simulation opens the saved state under its lock,
// builds the engine with the deployers the configuration chooses, applies
// its change, runs to a fixed point (or the bounds of RunOptions), assesses
// the roots it is about, saves, and returns a Run.
//
//	cfg := &action.Configuration{StatePath: ".lscli", Seed: 1}
//	a := action.NewReconcile(cfg)
//	a.Paths = []string{"examples/simple"}
//	res, err := a.Run(ctx)
//	...
//	os.Exit(res.ExitCode())
package action
