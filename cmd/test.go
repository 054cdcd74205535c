package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/scenario"
)

// testLong is the help of lscli test.
const testLong = `Run scenario files: testscript scripts (txtar archives) in which lscli is a built-in command,
each in a new, empty working directory, one after another. A folder stands for its *.txtar files
(sub-folders too, hidden ones not); without arguments, the working directory's. $SCRIPTDIR is the
folder of the scenario file, so a script reaches the landscape of its repository:

  # reconcile: the landscape succeeds.
  lscli reconcile $SCRIPTDIR/../landscape
  cmp stdout want-tree

  # a bad file is invalid input.
  ! lscli reconcile bad.yaml
  exitcode 2

  -- want-tree --
  ...

Besides lscli and exitcode N (the last lscli call exited with N), scripts have testscript's
commands: cmp, stdout, stderr (regular expressions), exists, env, cd, exec, ... (see
https://pkg.go.dev/github.com/rogpeppe/go-internal/testscript).

--update rewrites the golden files inside the scenario files that a cmp finds different (review
the diff before committing); --run selects scenarios by name; --junit writes a JUnit XML report
for CI systems. Each scenario prints a line "--- PASS: name (file)" (FAIL, SKIP) on stdout, a
failed one its log; a summary line goes to stderr. -update, -run, -junit and -v are accepted as
go test spells them.

Exit codes: 0 every scenario passed (or was skipped); 1 a scenario failed; 2 invalid input (no
scenario files, a bad --run expression).`

func newTestCmd(f *factory) *cobra.Command {
	var junit string
	var opts scenario.Options
	a := action.NewTest(Run)
	cmd := &cobra.Command{
		Use:   "test [FILE|DIR]...",
		Short: "Run scenario files: scripts of lscli commands with golden output",
		Long:  testLong,
		Example: `  lscli test tests/
  lscli test tests/ --run deploy --update
  lscli test tests/ --junit lscli-junit.xml`,
		ValidArgsFunction: landscapeCompletion,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.Paths, a.Options = args, opts
			res, err := a.Run(cmd.Context())
			if err != nil {
				return err
			}
			if _, err := io.WriteString(f.streams.Out, output.TestReport(res.Results)); err != nil {
				return err
			}
			if junit != "" {
				if err := writeJUnit(junit, res.Results); err != nil {
					return err
				}
			}
			f.status("%s", testSummary(res))
			return action.SilentExit(res.ExitCode())
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Update, "update", false, "rewrite the golden files in the scenario files that a cmp finds different")
	fl.StringVar(&a.Match, "run", "", "run only the scenarios whose name matches this regular expression")
	fl.StringVar(&junit, "junit", "", "write a JUnit XML report to this file")
	fl.BoolVarP(&opts.Verbose, "verbose", "v", false, "print the log of every scenario, also of those that pass")
	return cmd
}

// writeJUnit writes the JUnit report of results to path.
func writeJUnit(path string, results []scenario.Result) error {
	var b strings.Builder
	if err := output.JUnit(results, &b); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write junit report: %w", err)
	}
	return nil
}

// testSummary is the last line of lscli test: how many scenarios passed,
// failed and were skipped.
func testSummary(res *action.TestResult) string {
	passed, failed, skipped := res.Count(scenario.Passed), res.Count(scenario.Failed), res.Count(scenario.Skipped)
	total := plural(len(res.Results), "scenario")
	extra := ""
	if skipped > 0 {
		extra = fmt.Sprintf(", %d skipped", skipped)
	}
	if failed > 0 {
		return fmt.Sprintf("FAIL: %d of %s failed (%d passed%s)", failed, total, passed, extra)
	}
	return fmt.Sprintf("PASS: %s (%d passed%s)", total, passed, extra)
}

// goTestFlags are the flags of `lscli test` that go test users write with
// one dash.
var goTestFlags = []string{"update", "run", "junit"}

// goTestArgs rewrites -update, -run and -junit of `lscli test` to the
// two-dash flags they are.
func goTestArgs(args []string) []string {
	if len(args) == 0 || args[0] != "test" {
		return args
	}
	out := append([]string(nil), args...)
	for i, a := range out {
		if a == "--" {
			break
		}
		for _, name := range goTestFlags {
			if a == "-"+name || strings.HasPrefix(a, "-"+name+"=") {
				out[i] = "-" + a
			}
		}
	}
	return out
}
