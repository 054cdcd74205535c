package cmd

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/iostreams"
)

// TestOwnPanicsAskForABugReport: a panic in lscli's own code reaches the
// user as an error (exit 1) with the stack and a request for a bug report.
func TestOwnPanicsAskForABugReport(t *testing.T) {
	streams, _, _, errOut := iostreams.Test()
	err := execute(streams, []string{"version"}, nil, func(root *cobra.Command) {
		root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error { panic("boom") }})
	})
	if err != nil {
		t.Fatalf("version: %v", err)
	}
	err = execute(streams, []string{"boom"}, nil, func(root *cobra.Command) {
		root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error { panic("boom") }})
	})
	if code := action.ExitCodeOf(err); code != action.ExitBug {
		t.Fatalf("exit code %d, want %d", code, action.ExitBug)
	}
	printError(streams, err)
	got := errOut.String()
	for _, want := range []string{"error: lscli panicked: boom (this is a bug in lscli: please report it", "goroutine ", "TestOwnPanicsAskForABugReport"} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr lacks %q:\n%s", want, got)
		}
	}
}
