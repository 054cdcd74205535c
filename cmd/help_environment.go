package cmd

import "github.com/spf13/cobra"

// newEnvironmentHelpCmd is `lscli help environment`.
func newEnvironmentHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "environment",
		Short: "Environment variables lscli reads",
		Long: `LSCLI_<FLAG>: every global flag can be set in the environment, e.g. LSCLI_STATE, LSCLI_NAMESPACE,
LSCLI_SEED, LSCLI_OUTPUT, LSCLI_PICKUP_TIMEOUT, LSCLI_DEPLOYER (comma-separated TYPE=MODE list),
LSCLI_TARGETS (simulated or real).
Flags override the environment, which overrides the config file (lscli.yaml or --config).

NO_COLOR: set to any non-empty value to turn color off (--color always still turns it on).

CLICOLOR_FORCE: set to a non-empty value other than "0" to color output that is not a terminal.

LSCLI_UPDATE: tests only; set to 1 to rewrite golden files.`,
	}
}
