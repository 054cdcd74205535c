package cmd

import (
	"sort"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// landscapeCompletion completes landscape files and folders: the shell's
// own file completion.
func landscapeCompletion(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveDefault
}

// kindNameCompletion completes KIND, then the names of the objects of that
// kind in the saved simulation (get, describe, events).
func (f *factory) kindNameCompletion(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	switch len(args) {
	case 0:
		return kindNames(), cobra.ShellCompDirectiveNoFileComp
	case 1:
		kind, err := action.ResolveKind(args[0])
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return f.objectNames(cmd, kind, false), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// kindOrNameCompletion completes [KIND] NAME: kinds and the names of root
// installations first, then the names of the objects of the kind given
// (trigger, delete, events).
func (f *factory) kindOrNameCompletion(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return append(kindNames(), f.objectNames(cmd, "Installation", true)...), cobra.ShellCompDirectiveNoFileComp
	}
	return f.kindNameCompletion(cmd, args, toComplete)
}

// installationCompletion completes the name of an installation (only of
// root installations with roots); with --execution, of an execution.
func (f *factory) installationCompletion(roots bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		kind := "Installation"
		if execution, _ := cmd.Flags().GetBool("execution"); execution {
			kind = "Execution"
		}
		return f.objectNames(cmd, kind, roots), cobra.ShellCompDirectiveNoFileComp
	}
}

// objectNames returns the names of the objects of kind in the saved
// simulation, each once, sorted; nothing when it cannot be read.
func (f *factory) objectNames(cmd *cobra.Command, kind string, roots bool) []cobra.Completion {
	s, err := loadSettings(cmd, f.getenv, nil)
	if err != nil {
		return nil
	}
	cfg, err := configuration(s)
	if err != nil {
		return nil
	}
	a := action.NewGet(cfg)
	a.Namespace = s.Namespace
	objs, err := a.Run(cmd.Context(), []string{kind})
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var names []cobra.Completion
	for _, o := range objs {
		if inst, ok := o.(*lsv1alpha1.Installation); roots && ok && !dataflow.IsRoot(inst) {
			continue
		}
		if !seen[o.GetName()] {
			seen[o.GetName()] = true
			names = append(names, o.GetName())
		}
	}
	sort.Strings(names)
	return names
}

// deployerTypes are the deploy item types --deployer completes.
func deployerTypes() []string {
	var types []string
	for t := range action.RealDeployers(nil, nil, nil) {
		types = append(types, string(t))
	}
	sort.Strings(types)
	return types
}
