package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/landscape"
)

// version is set at build time with -ldflags "-X github.com/lscli/lscli/cmd.version=...".
var version = "dev"

// Main runs lscli with the process's arguments, streams and environment and
// returns the exit code. It is the only place that touches os.Stdout,
// os.Stderr and os.Args.
func Main() int {
	return Run(iostreams.System(), os.Args[1:], os.Getenv)
}

// Run runs lscli with args and returns the exit code. Errors are printed once,
// here, to streams.ErrOut: commands only return them. A panic is printed as
// an error of lscli (exit 1) with its stack and a request for a bug report.
func Run(streams *iostreams.IOStreams, args []string, getenv func(string) string) int {
	err := execute(streams, args, getenv, nil)
	if err != nil {
		printError(streams, err)
	}
	return exitCode(err)
}

// execute runs the root command, turning a panic into a *crash.Error.
// extend, when set, changes the root command first (tests add commands).
func execute(streams *iostreams.IOStreams, args []string, getenv func(string) string, extend func(*cobra.Command)) (err error) {
	defer crash.Recover(crash.Own, &err)
	root := New(streams, getenv)
	if extend != nil {
		extend(root)
	}
	root.SetArgs(args)
	return root.ExecuteContext(context.Background())
}

// printError prints err: every problem of a load error on its own line, and
// the stack of a panic in lscli's own code.
func printError(streams *iostreams.IOStreams, err error) {
	var ee *action.ExitError
	if errors.As(err, &ee) && ee.Err == nil {
		return
	}
	if ce := crash.As(err); ce != nil && ce.Component == crash.Own {
		fmt.Fprintf(streams.ErrOut, "error: %v\n\n%s", err, ce.Stack)
		return
	}
	var le *landscape.LoadError
	if errors.As(err, &le) {
		for _, p := range le.Problems {
			fmt.Fprintf(streams.ErrOut, "error: %s\n", p)
		}
		return
	}
	fmt.Fprintf(streams.ErrOut, "error: %v\n", err)
}

// New builds the root command with its subcommands. getenv looks up
// environment variables (os.Getenv in production).
func New(streams *iostreams.IOStreams, getenv func(string) string) *cobra.Command {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	root := &cobra.Command{
		Use:   "lscli",
		Short: "Run Gardener Landscaper's reconcile machine locally, without a cluster",
		Long: `lscli loads Landscaper YAML (Installations with their blueprints, Targets, DataObjects, Executions,
DeployItems) into an in-memory API server, runs the installation, execution and deploy item
controllers with fake or real deployers to a fixed point, and prints the object tree.

The simulation is kept in .lscli/ (see --state), so commands can act on it one after another.`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetIn(streams.In)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return invalid(err) })
	addGlobalFlags(root)
	f := &factory{streams: streams, getenv: getenv}
	root.AddCommand(
		newReconcileCmd(f), newInterruptCmd(f), newDeleteCmd(f), newTriggerCmd(f),
		newGetCmd(f), newTreeCmd(f), newEventsCmd(f),
		newValidateCmd(f), newRenderCmd(f), newResetCmd(f), newVersionCmd(f), newEnvironmentHelpCmd(),
	)
	return root
}

// factory gives commands what they share: the streams and the environment.
type factory struct {
	streams *iostreams.IOStreams
	getenv  func(string) string
}

// settings merges the global settings for cmd.
func (f *factory) settings(cmd *cobra.Command) (*settings, error) {
	s, err := loadSettings(cmd, f.getenv)
	if s != nil {
		s.errOut = f.streams.ErrOut
	}
	return s, err
}

// addGlobalFlags declares the flags every command takes.
func addGlobalFlags(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringP("namespace", "n", "", "namespace of objects without one, and the namespace to show (default: objects go to \"default\", all namespaces are shown)")
	pf.StringP("output", "o", "tree", "output format: tree, wide, yaml, json (get also: table)")
	pf.String("state", ".lscli", "folder that keeps the simulation between commands (env LSCLI_STATE)")
	pf.String("config", "", "config file (default: lscli.yaml in the working directory, if present)")
	pf.String("seed", "1", "seed of the random source: job IDs, generated names, order of independent work")
	pf.String("color", "auto", "color output: auto, always, never (NO_COLOR turns it off)")
	pf.String("until", "", "stop when the virtual clock has advanced this much, e.g. 10m")
	pf.String("max-steps", "0", "stop after this many reconcile steps (0: no limit)")
	pf.String("start-time", "2025-01-01T00:00:00Z", "virtual time at which a new simulation starts")
	pf.StringArray("deployer", nil, "TYPE=MODE: run deploy items of TYPE with a fake, real or no (none) deployer; repeatable")
	pf.String("targets", "simulated", "the clusters real deployers reach: simulated, or real (the Targets' kubeconfigs)")
	pf.String("pickup-timeout", "5m", "how long a deploy item may wait for a deployer, or none")
	pf.String("lock-timeout", "5s", "how long to wait for another lscli to release the state's lock (0: do not wait)")
}
