package scenario_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/scenario"
)

// fakeMain is an lscli that prints its arguments and the working directory's
// name, and exits with the code its first argument names.
func fakeMain(streams *iostreams.IOStreams, args []string, getenv func(string) string) int {
	wd, _ := os.Getwd()
	fmt.Fprintf(streams.Out, "args %s in %s, SCRIPTDIR set: %v\n", strings.Join(args, " "), filepath.Base(wd), getenv("SCRIPTDIR") != "")
	code, _ := strconv.Atoi(args[0])
	return code
}

// TestRun runs scenarios that pass, fail and skip, and checks the outcome,
// the log and the exitcode command.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	scripts := map[string]string{
		"pass.txtar":      "lscli 0 a\nstdout '^args 0 a in script-pass, SCRIPTDIR set: true$'\n! lscli 3\nexitcode 3\n",
		"wrongcode.txtar": "# the code is 3, not 4.\n! lscli 3\nexitcode 4\n",
		"fails.txtar":     "lscli 2\n",
		"skip.txtar":      "skip 'not today'\n",
	}
	for name, script := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var files []string
	for _, name := range []string{"pass.txtar", "wrongcode.txtar", "fails.txtar", "skip.txtar"} {
		files = append(files, filepath.Join(dir, name))
	}
	results, err := scenario.Run(fakeMain, files, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name    string
		outcome scenario.Outcome
		log     string
	}{
		{"pass", scenario.Passed, ""},
		{"wrongcode", scenario.Failed, "FAIL: " + files[1] + ":3: lscli exited with code 3, want 4"},
		{"fails", scenario.Failed, "FAIL: " + files[2] + ":1: lscli exited with code 2"},
		{"skip", scenario.Skipped, "not today"},
	}
	if len(results) != len(want) {
		t.Fatalf("got %d results, want %d: %+v", len(results), len(want), results)
	}
	for i, w := range want {
		r := results[i]
		if r.Name != w.name || r.Outcome != w.outcome || !strings.Contains(r.Log, w.log) {
			t.Errorf("result %d = %s %s, log:\n%s\nwant %s %s with %q", i, r.Name, r.Outcome, r.Log, w.name, w.outcome, w.log)
		}
	}
	if strings.Contains(results[1].Log, "s)") {
		t.Errorf("the log has phase timings:\n%s", results[1].Log)
	}
}
