package cmd

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lscli/lscli/action"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// DefaultConfigFile is read from the working directory when --config is not given.
const DefaultConfigFile = "lscli.yaml"

// settings are the options every command shares, merged from flags, LSCLI_*
// environment variables, the config file and defaults, in that order.
type settings struct {
	Namespace string
	Output    string
	State     string
	Seed      uint64
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
	// config is the parsed config file, for command-specific keys.
	config *viper.Viper
}

// source merges one setting from its sources.
type source struct {
	flags  *pflag.FlagSet
	getenv func(string) string
	config *viper.Viper
}

// get returns the value of key: the flag when set, else LSCLI_<KEY>, else the
// config file, else def. found says whether any source had it.
func (s source) get(key, def string) (val string, found bool) {
	if f := s.flags.Lookup(key); f != nil && f.Changed {
		return f.Value.String(), true
	}
	env := "LSCLI_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
	if v := s.getenv(env); v != "" {
		return v, true
	}
	if s.config != nil && s.config.IsSet(key) {
		return s.config.GetString(key), true
	}
	return def, false
}

// readConfig reads the config file: path when given (it must exist), else
// lscli.yaml in the working directory when present.
func readConfig(path string) (*viper.Viper, error) {
	explicit := path != ""
	if !explicit {
		path = DefaultConfigFile
		if _, err := os.Stat(path); err != nil {
			return nil, nil
		}
	}
	v := viper.New()
	v.SetConfigFile(path)
	v.SetConfigType("yaml")
	if err := v.ReadInConfig(); err != nil {
		return nil, invalidf("read config %s: %v", path, err)
	}
	return v, nil
}

// loadSettings merges the global settings for cmd.
func loadSettings(cmd *cobra.Command, getenv func(string) string) (*settings, error) {
	flags := cmd.Flags()
	cfgPath, _ := source{flags: flags, getenv: getenv}.get("config", "")
	cfg, err := readConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	src := source{flags: flags, getenv: getenv, config: cfg}
	s := &settings{config: cfg}
	s.Namespace, _ = src.get("namespace", "")
	s.Output, _ = src.get("output", "tree")
	s.State, _ = src.get("state", ".lscli")
	s.Color, _ = src.get("color", "auto")
	if err := s.parseNumbers(src); err != nil {
		return nil, err
	}
	if err := s.parseDeployers(src, flags); err != nil {
		return nil, err
	}
	return s, nil
}

// parseNumbers parses seed, until, max-steps, start-time and the pickup timeout.
func (s *settings) parseNumbers(src source) error {
	var err error
	seed, found := src.get("seed", "1")
	if s.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return invalidf("invalid --seed %q: want a non-negative integer", seed)
	}
	s.SeedSet = found
	if s.Until, err = parseDuration(src, "until", ""); err != nil {
		return err
	}
	steps, _ := src.get("max-steps", "0")
	if s.MaxSteps, err = strconv.Atoi(steps); err != nil || s.MaxSteps < 0 {
		return invalidf("invalid --max-steps %q: want a non-negative integer", steps)
	}
	start, _ := src.get("start-time", "2025-01-01T00:00:00Z")
	if s.StartTime, err = time.Parse(time.RFC3339, start); err != nil {
		return invalidf("invalid --start-time %q: want RFC 3339, e.g. 2025-01-01T00:00:00Z", start)
	}
	s.StartTime = s.StartTime.UTC()
	if s.PickupTimeout, err = parseDuration(src, "pickup-timeout", "5m"); err != nil {
		return err
	}
	if s.PickupTimeout == 0 {
		s.PickupTimeout = -1 // 0 switches the check off, as in Landscaper
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

// checkOutput validates -o against the formats a command allows.
func (s *settings) checkOutput(allowed ...string) error {
	if !contains(allowed, s.Output) {
		return invalidf("invalid --output %q (allowed: %s)", s.Output, strings.Join(allowed, ", "))
	}
	return nil
}

// String is for debugging.
func (s *settings) String() string { return fmt.Sprintf("%+v", *s) }
