package cmd

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/landscape"
)

// version is set at build time with -ldflags "-X github.com/lscli/lscli/cmd.version=...".
var version = "dev"

// Main runs lscli with the process's arguments, streams and environment and
// returns the exit code. It is the only place that touches os.Stdout,
// os.Stderr and os.Args.
func Main() int {
	tuneGC(os.Getenv)
	return Run(iostreams.System(), os.Args[1:], os.Getenv)
}

// Garbage collector settings of the lscli process, unless GOGC or GOMEMLIMIT
// say otherwise: collect when the heap has grown by 300% (Go's default is
// 100%), but keep it under 800 MiB. A big landscape keeps a large live heap
// (every object, the timeline) and allocates fast; the default collector
// spent a third of the CPU of a 10,000-installation run scanning it. With
// these settings the run is about 10% faster and its peak RSS stays under
// 1 GiB (docs/performance.md).
const (
	gcPercent   = 300
	memoryLimit = 800 << 20
)

// tuneGC applies the garbage collector settings above where the environment
// does not set its own.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// Run runs lscli with args and returns the exit code. Errors are printed once,
// here, to streams.ErrOut: commands only return them. A panic is printed as
// an error of lscli (exit 1) with its stack and a request for a bug report.
func Run(streams *iostreams.IOStreams, args []string, getenv func(string) string) int {
	// helm's libraries write warnings (a chart's requirements.yaml, a value
	// that is no table) through the standard logger: to stderr, without
	// the wall clock, so that the same input gives the same output.
	log.SetFlags(0)
	log.SetPrefix("helm: ")
	log.SetOutput(streams.ErrOut)
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
	root.SetArgs(goTestArgs(args))
	return root.ExecuteContext(context.Background())
}

// printError prints err: every problem of a load error on its own line, and
// the stack of a panic in lscli's own code.
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
	s.errOut, s.stdin = f.streams.ErrOut, f.streams.In
	if cmd.Flags().Lookup("output") != nil {
		if err := checkOutput(cmd, s.Output); err != nil {
			return nil, err
		}
		if err := output.CheckFormat(s.Output); err != nil {
			if s.outputFrom != "" {
				err = fmt.Errorf("%s: %w", s.outputFrom, err)
			}
			return nil, invalid(err)
		}
	}
	for _, n := range s.notes {
		f.status("%s", n)
	}
	return s, nil
}
