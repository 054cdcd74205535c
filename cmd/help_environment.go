package cmd

import "github.com/spf13/cobra"

// newEnvironmentHelpCmd is `lscli help environment`.
func newEnvironmentHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "environment",
		Short: "Environment variables lscli reads",
		Long: `LSCLI_<FLAG>: a flag can be set in the environment, e.g. LSCLI_STATE, LSCLI_NAMESPACE,
LSCLI_CONFIG, LSCLI_OUTPUT; for the commands that run also LSCLI_SEED, LSCLI_UNTIL,
LSCLI_MAX_STEPS, LSCLI_PICKUP_TIMEOUT, LSCLI_DEPLOYER (comma-separated TYPE=MODE list),
LSCLI_TARGETS (simulated or real). A command reads the variables of the flags it has.
Flags override the environment, which overrides the config file (lscli.yaml or --config).

NO_COLOR: set to any non-empty value to turn color off (--color always still turns it on).

CLICOLOR_FORCE: set to a non-empty value other than "0" to color output that is not a terminal.

GOGC, GOMEMLIMIT: Go's garbage collector settings. lscli collects at 300% heap growth within
800MiB unless these are set (see docs/performance.md).

LSCLI_UPDATE: go test of lscli and of package lsclitest; set to 1 to rewrite golden files
(lscli test --update does it on the command line).`,
	}
}
