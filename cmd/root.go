package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/cmd/output"
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
// here, to streams.ErrOut: commands only return them.
func Run(streams *iostreams.IOStreams, args []string, getenv func(string) string) int {
	root := New(streams, getenv)
	root.SetArgs(goTestArgs(args))
	err := root.ExecuteContext(context.Background())
	if err != nil {
		printError(streams, err)
	}
	return exitCode(err)
}

// printError prints err: every problem of a load error on its own line.
func printError(streams *iostreams.IOStreams, err error) {
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(streams.ErrOut, "error: %v\n%s", ue.err.Err, ue.usageLines())
		return
	}
	var ee *action.ExitError
	if errors.As(err, &ee) && ee.Err == nil {
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
		Args:          cobra.ArbitraryArgs,
		RunE:          unknownCommand,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetIn(streams.In)
	addGlobalFlags(root)
	f := &factory{streams: streams, getenv: getenv, now: time.Now}
	root.AddCommand(
		newReconcileCmd(f), newInterruptCmd(f), newDeleteCmd(f), newTriggerCmd(f),
		newGetCmd(f), newDescribeCmd(f), newTreeCmd(f), newEventsCmd(f),
		newValidateCmd(f), newRenderCmd(f), newTestCmd(f), newResetCmd(f), newVersionCmd(f), newEnvironmentHelpCmd(),
	)
	asUsageErrors(root)
	return root
}

// factory gives commands what they share: the streams, the environment and
// the wall clock (for the progress line only).
type factory struct {
	streams *iostreams.IOStreams
	getenv  func(string) string
	now     func() time.Time
}

// settings merges the settings of cmd, checks -o against the formats cmd
// allows and tells the notes about config files on ErrOut. paths are the
// landscape files and folders the command reads, if it reads any: a folder's
// own lscli.yaml is the config file then.
func (f *factory) settings(cmd *cobra.Command, paths ...string) (*settings, error) {
	s, err := loadSettings(cmd, f.getenv, paths)
	if err != nil {
		return nil, err
	}
	if cmd.Flags().Lookup("output") != nil {
		if err := checkOutput(cmd, s.Output); err != nil {
			return nil, err
		}
		if err := output.CheckFormat(s.Output); err != nil {
			return nil, invalid(err)
		}
	}
	for _, n := range s.notes {
		f.status("%s", n)
	}
	return s, nil
}
