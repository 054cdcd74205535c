package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/cmd/iostreams"
)

// defaultStartTime is the virtual time a new simulation starts at.
const defaultStartTime = "2025-01-01T00:00:00Z"

// addGlobalFlags declares the flags every command takes.
func addGlobalFlags(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringP("namespace", "n", "", "namespace of objects without one, and the namespace to show (default: objects go to \"default\", all namespaces are shown)")
	pf.String("state", ".lscli", "folder that keeps the simulation between commands (env LSCLI_STATE)")
	pf.String("config", "", "config file (default: lscli.yaml of the landscape folder given as argument, else of the working directory)")
	pf.String("color", "auto", "color output: "+strings.Join(iostreams.ColorModes, ", ")+" (NO_COLOR turns it off)")
	pf.String("lock-timeout", "5s", "how long to wait for another lscli to release the state's lock (0: do not wait)")
	_ = root.RegisterFlagCompletionFunc("color", fixedCompletion(iostreams.ColorModes...))
	_ = root.RegisterFlagCompletionFunc("config", yamlFileCompletion)
	_ = root.RegisterFlagCompletionFunc("state", cobra.FixedCompletions(nil, cobra.ShellCompDirectiveFilterDirs))
}

// addAllNamespacesFlag declares kubectl's -A on a reading command: show
// every namespace, which is what it does without -n anyway.
func addAllNamespacesFlag(cmd *cobra.Command) {
	cmd.Flags().BoolP("all-namespaces", "A", false, "show objects of every namespace, also when -n or the config names one (the default without -n)")
}

// addSeedFlags declares the flags that shape a new simulation or dry run:
// the seed and the start time.
func addSeedFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Uint64("seed", 1, "seed of the random source: job IDs, generated names, order of independent work")
	f.String("start-time", defaultStartTime, "virtual time at which a new simulation starts")
}

// addRunFlags declares the flags of the commands that run the simulation:
// reconcile, interrupt, delete, trigger.
func addRunFlags(cmd *cobra.Command) {
	addSeedFlags(cmd)
	f := cmd.Flags()
	f.String("until", "", "stop when the virtual clock has advanced this much, e.g. 10m")
	f.Int("max-steps", 0, "stop after this many reconcile steps (0: no limit)")
	f.StringArray("deployer", nil, "TYPE=MODE: run deploy items of TYPE with a fake, real or no (none) deployer; repeatable")
	f.String("targets", "simulated", "the clusters real deployers reach: simulated, or real (the Targets' kubeconfigs)")
	f.String("pickup-timeout", "5m", "how long a deploy item may wait for a deployer; none or 0 switches the check off")
	_ = cmd.RegisterFlagCompletionFunc("targets", fixedCompletion(targetModes...))
	_ = cmd.RegisterFlagCompletionFunc("deployer", deployerCompletion)
	for _, name := range []string{"until", "max-steps", "seed", "start-time", "pickup-timeout"} {
		_ = cmd.RegisterFlagCompletionFunc(name, cobra.NoFileCompletions)
	}
}

// fixedCompletion completes one of values.
func fixedCompletion(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

// yamlFileCompletion completes YAML files.
func yamlFileCompletion(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return []cobra.Completion{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
}

// deployerCompletion completes --deployer TYPE=MODE: the known types, then
// the modes.
func deployerCompletion(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if typ, _, ok := strings.Cut(toComplete, "="); ok {
		var out []cobra.Completion
		for _, m := range deployerModes {
			out = append(out, typ+"="+m)
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, t := range deployerTypes() {
		out = append(out, t+"=")
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// addFilenameFlag adds kubectl apply's -f/--filename to a command that reads
// a landscape: the files and folders it names (repeatable, or with commas;
// "-" is standard input) are read after those given as arguments.
func addFilenameFlag(cmd *cobra.Command, files *[]string) {
	cmd.Flags().StringSliceVarP(files, "filename", "f", nil,
		`a file or folder of the landscape, as an argument is ("-": YAML documents on standard input), as kubectl apply's -f`)
}
