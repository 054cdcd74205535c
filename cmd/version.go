package cmd

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

func newVersionCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of lscli: module version, VCS revision, Go version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprint(f.streams.Out, versionText(debug.ReadBuildInfo()))
			return err
		},
	}
}

// versionText says which lscli this is, from the build info: the module
// version (or the one set with -ldflags -X), the VCS revision and time (with
// "+dirty" for a modified work tree) and the Go version.
func versionText(info *debug.BuildInfo, ok bool) string {
	v := version
	if !ok {
		return fmt.Sprintf("lscli %s\n", v)
	}
	if v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	var b strings.Builder
	fmt.Fprintf(&b, "lscli %s\n", v)
	if mod := info.Main.Path; mod != "" {
		fmt.Fprintf(&b, "module:   %s\n", mod)
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if settings["vcs.modified"] == "true" {
			rev += "+dirty"
		}
		if t := settings["vcs.time"]; t != "" {
			rev += " (" + t + ")"
		}
		fmt.Fprintf(&b, "revision: %s\n", rev)
	}
	fmt.Fprintf(&b, "go:       %s\n", info.GoVersion)
	return b.String()
}
