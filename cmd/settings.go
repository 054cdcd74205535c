package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/state"
)

// settings are the options of a command, merged from flags, LSCLI_*
// environment variables, the config file and defaults, in that order. A
// setting whose flag the command does not have keeps its zero value: `lscli
// get` never reads LSCLI_UNTIL.
type settings struct {
	Namespace string
	Output    string
	// outputFrom names where Output came from when it is not the flag or
	// the default (LSCLI_OUTPUT, the config file), for its errors.
	outputFrom string
	State      string
	Seed       uint64
	// SeedSet is true when the user gave a seed (flag, env or config).
	SeedSet   bool
	Color     string
	Until     time.Duration
	MaxSteps  int
	StartTime time.Time
	// Deployers maps a deploy item type to fake, real or none.
	Deployers map[string]string
	// deployer holds the deployer modes, rules and target modes, parsed and
	// compiled (see settings_deployers.go).
	deployer action.DeployerSettings
	// PickupTimeout is the landscaper pickup timeout; negative means none.
	PickupTimeout time.Duration
	// LockTimeout is how long to wait for the state's lock.
	LockTimeout time.Duration
	// Limits are the config file's limits: section.
	Limits limits.Limits
	// errOut receives notices, such as waiting for the state's lock.
	errOut io.Writer
	// stdin is what a landscape path "-" reads.
	stdin io.Reader
	// config is the config file read, nil when there is none.
	config *configFile
	// notes are told on stderr before the command runs: config files that
	// are not read.
	notes []string
}

// source merges one setting from its sources.
type source struct {
	flags  *pflag.FlagSet
	getenv func(string) string
	config *configFile
}

// has reports whether the command has the flag key.
func (s source) has(key string) bool { return s.flags.Lookup(key) != nil }

// get returns the value of key: the flag when set, else LSCLI_<KEY>, else the
// config file, else def. found says whether any source had it.
func (s source) get(key, def string) (val string, found bool) {
	if f := s.flags.Lookup(key); f != nil && f.Changed {
		return f.Value.String(), true
	}
	if v := s.getenv(envName(key)); v != "" {
		return v, true
	}
	if v, ok := s.config.setting(key); ok {
		return v, true
	}
	return def, false
}

// origin names where get finds key's value when it is neither the flag
// nor the default: LSCLI_<KEY>, or the config file's key (FILE: key); ""
// otherwise.
func (s source) origin(key string) string {
	if f := s.flags.Lookup(key); f != nil && f.Changed {
		return ""
	}
	if s.getenv(envName(key)) != "" {
		return envName(key)
	}
	if _, ok := s.config.setting(key); ok {
		return s.config.path + ": " + key
	}
	return ""
}

// envName is the environment variable of the flag key: LSCLI_<KEY>.
func envName(key string) string {
	return "LSCLI_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// defaultOf is the default of the command's flag key, or "".
func (s source) defaultOf(key string) string {
	if f := s.flags.Lookup(key); f != nil {
		return f.DefValue
	}
	return ""
}

// annotationNoState marks the commands that neither read nor change the
// saved simulation (render, validate): the config file the state was last
// saved with is no config file of theirs.
const annotationNoState = "lscli.io/no-state"

// loadSettings merges the settings of cmd. paths are the landscape files and
// folders the command reads (reconcile, render, validate), which choose the
// config file when --config is not given (see pickConfig).
func loadSettings(cmd *cobra.Command, getenv func(string) string, paths []string) (*settings, error) {
	flags := cmd.Flags()
	plain := source{flags: flags, getenv: getenv}
	explicit, _ := plain.get("config", "")
	savedIn := func(folder string) string {
		if cmd.Annotations[annotationNoState] != "" {
			return ""
		}
		return state.New(folder).SavedConfigFile()
	}
	choice, err := pickConfig(explicit, paths, func() string {
		// With no config file to say otherwise, the state is where the
		// flag, LSCLI_STATE or the default put it.
		folder, _ := plain.get("state", ".lscli")
		return savedIn(folder)
	})
	if err != nil {
		return nil, err
	}
	s := &settings{}
	if choice.path != "" {
		if s.config, err = readConfigFile(choice.path); err != nil {
			if choice.fromState {
				// Say why a file the command line does not name is read.
				return nil, invalidf("%v (the config file the state was last saved with; pass --config FILE to use another)", err)
			}
			return nil, err
		}
	}
	src := source{flags: flags, getenv: getenv, config: s.config}
	s.Namespace, _ = src.get("namespace", "")
	if all, err := flags.GetBool("all-namespaces"); err == nil && all {
		s.Namespace = "" // kubectl's -A: every namespace, whatever -n says
	}
	s.State, _ = src.get("state", ".lscli")
	if choice.fromState {
		s.State, _ = plain.get("state", ".lscli")
	}
	if cmd.Annotations[annotationNoState] == "" {
		if err := checkStateFolder(s.State); err != nil {
			return nil, err
		}
	}
	choice.noteSavedConfig(paths, func() string { return savedIn(s.State) })
	s.notes = choice.notes
	s.Color, _ = src.get("color", "auto")
	// Check --color before the command runs: a command that changes the
	// state would otherwise save it and only then fail on its output.
	if _, err := iostreams.ColorEnabled(s.Color, false, nil); err != nil {
		return nil, invalid(err)
	}
	if src.has("output") {
		// LSCLI_OUTPUT and the config's output are defaults: a command that
		// does not have the format keeps its own default.
		def := src.defaultOf("output")
		if s.Output, _ = src.get("output", def); !flags.Changed("output") && checkOutput(cmd, s.Output) != nil {
			s.Output = def
		} else {
			s.outputFrom = src.origin("output")
		}
	}
	if err := s.parseNumbers(src); err != nil {
		return nil, err
	}
	if err := s.parseDeployers(src, flags); err != nil {
		return nil, err
	}
	if err := s.parseLimits(); err != nil {
		return nil, err
	}
	return s, nil
}

// checkStateFolder refuses a state folder that is a file, or lies under
// one: the user named the wrong path (--state, LSCLI_STATE or lscli.yaml),
// which is invalid input, not a failure of lscli.
func checkStateFolder(folder string) error {
	if folder == "" {
		return nil
	}
	fi, err := os.Stat(folder)
	switch {
	case err == nil && !fi.IsDir():
		return invalidf("state folder %s is a file: lscli keeps its simulation in a folder; pass --state with a folder (it is created when missing)", folder)
	case errors.Is(err, syscall.ENOTDIR):
		return invalidf("state folder %s lies under a file, not a folder: pass --state with a folder (it is created when missing)", folder)
	}
	return nil
}

// parseNumbers parses seed, until, max-steps, start-time and the pickup and
// lock timeouts, those the command has flags for.
func (s *settings) parseNumbers(src source) error {
	var err error
	if src.has("seed") {
		seed, found := src.get("seed", "1")
		if s.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
			return invalidf("invalid --seed %q: want a non-negative integer", seed)
		}
		s.SeedSet = found
	}
	if src.has("until") {
		if s.Until, err = parseDuration(src, "until", ""); err != nil {
			return err
		}
	}
	if src.has("max-steps") {
		steps, _ := src.get("max-steps", "0")
		if s.MaxSteps, err = strconv.Atoi(steps); err != nil || s.MaxSteps < 0 {
			return invalidf("invalid --max-steps %q: want a non-negative integer", steps)
		}
	}
	if src.has("start-time") {
		start, _ := src.get("start-time", defaultStartTime)
		if s.StartTime, err = time.Parse(time.RFC3339, start); err != nil {
			return invalidf("invalid --start-time %q: want RFC 3339, e.g. 2025-01-01T00:00:00Z", start)
		}
		s.StartTime = s.StartTime.UTC()
	}
	if src.has("pickup-timeout") {
		if s.PickupTimeout, err = parseDuration(src, "pickup-timeout", "5m"); err != nil {
			return err
		}
		if s.PickupTimeout == 0 {
			s.PickupTimeout = -1 // 0 switches the check off, as in Landscaper
		}
	}
	if src.has("lock-timeout") {
		if s.LockTimeout, err = parseDuration(src, "lock-timeout", "5s"); err != nil {
			return err
		}
		s.LockTimeout = max(s.LockTimeout, 0) // "none": do not wait
	}
	return nil
}

// parseDuration parses a Go duration or "none" (returned as -1).
func parseDuration(src source, key, def string) (time.Duration, error) {
	val, _ := src.get(key, def)
	switch val {
	case "":
		return 0, nil
	case "none":
		return -1, nil
	}
	d, err := time.ParseDuration(val)
	if err != nil || d < 0 {
		return 0, invalidf("invalid --%s %q: want a duration like 90s or 5m, or none", key, val)
	}
	return d, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// String is for debugging.
func (s *settings) String() string { return fmt.Sprintf("%+v", *s) }
