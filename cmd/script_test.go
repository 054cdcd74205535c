package cmd_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lscli/lscli/cmd"
)

// exitCodeFile is the variable that names the file where each lscli run in
// a script leaves its exit code, for the exitcode command.
const exitCodeFile = "LSCLI_TEST_EXITCODE"

func TestMain(m *testing.M) {
	if os.Getenv(benchChildEnv) == "1" {
		os.Exit(cmd.Main())
	}
	testscript.Main(m, map[string]func(){
		"lscli": func() {
			code := cmd.Main()
			if f := os.Getenv(exitCodeFile); f != "" {
				_ = os.WriteFile(f, []byte(strconv.Itoa(code)), 0o600)
			}
			os.Exit(code)
		},
	})
}

// TestScripts runs the CLI scripts in testdata/script. LSCLI_UPDATE=1 rewrites
// the golden files inside the scripts; review the diff before committing.
// Besides testscript's commands, a script may say `exitcode N`: the last
// lscli run exited with code N (`! exec` only says it was not 0).
func TestScripts(t *testing.T) {
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("LSCLI_UPDATE") == "1",
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", examples)
			env.Setenv("NO_COLOR", "")
			env.Setenv("CLICOLOR_FORCE", "")
			env.Setenv(exitCodeFile, filepath.Join(env.WorkDir, ".lscli-exitcode"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"exitcode": exitcode},
	})
}

// exitcode checks the exit code of the last lscli run: `exitcode N`.
func exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: exitcode N")
	}
	got := strings.TrimSpace(ts.ReadFile(ts.Getenv(exitCodeFile)))
	if got != args[0] {
		ts.Fatalf("lscli exited with %s, want %s", got, args[0])
	}
}
