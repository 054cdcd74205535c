package cmd

import (
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
)

// Format lists of the commands.
var (
	// objectFormats are the -o values of commands that print objects as
	// trees: the commands that run, and tree.
	objectFormats = append([]string{"tree", "wide", "yaml", "json", "name"}, output.TemplateFormats...)
	// getFormats are the -o values of get.
	getFormats = append([]string{"table", "wide", "tree", "yaml", "json", "name"}, output.TemplateFormats...)
)

// outputAnnotation keeps the -o values of a command on it, for the check and
// for completion.
const outputAnnotation = "lscli/output-formats"

// addOutputFlag declares -o with its default and the formats cmd allows.
func addOutputFlag(cmd *cobra.Command, def string, formats ...string) {
	var shown []string
	for _, f := range formats {
		shown = append(shown, formatHelp(f))
	}
	cmd.Flags().StringP("output", "o", def, "output format: "+strings.Join(shown, ", "))
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[outputAnnotation] = strings.Join(formats, "\n")
	_ = cmd.RegisterFlagCompletionFunc("output", outputCompletion)
}

// formatHelp shows a format in help texts: jsonpath=TEMPLATE.
func formatHelp(f string) string {
	switch f {
	case output.FormatJSONPath, output.FormatGoTemplate:
		return f + "TEMPLATE"
	case output.FormatCustomColumns:
		return f + "SPEC"
	case output.FormatJSONPathFile, output.FormatCustomColumnsFile, output.FormatGoTemplateFile:
		return f + "FILE"
	}
	return f
}

// outputFormatsOf returns the -o values cmd allows.
func outputFormatsOf(cmd *cobra.Command) []string {
	return strings.Split(cmd.Annotations[outputAnnotation], "\n")
}

// checkOutput validates -o against the formats cmd allows.
func checkOutput(cmd *cobra.Command, output string) error {
	formats := outputFormatsOf(cmd)
	for _, f := range formats {
		if output == f || strings.HasSuffix(f, "=") && strings.HasPrefix(output, f) && len(output) > len(f) {
			return nil
		}
	}
	var shown []string
	for _, f := range formats {
		shown = append(shown, formatHelp(f))
	}
	return action.Invalidf("invalid --output %q (allowed: %s)", output, strings.Join(shown, ", "))
}

// outputCompletion completes -o with the formats of the command.
func outputCompletion(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, f := range outputFormatsOf(cmd) {
		if strings.HasPrefix(f, toComplete) {
			out = append(out, f)
		}
	}
	dir := cobra.ShellCompDirectiveNoFileComp
	if slices.ContainsFunc(out, func(f string) bool { return strings.HasSuffix(f, "=") }) {
		dir |= cobra.ShellCompDirectiveNoSpace
	}
	return out, dir
}

// kindNames are the kinds get, describe and events complete, lower case.
func kindNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range action.KindAliases {
		if l := strings.ToLower(k); !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}
