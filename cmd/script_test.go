package cmd_test

import (
	"bufio"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lscli/lscli/cmd"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastyaml"
	"github.com/lscli/lscli/reconcile"
	"github.com/lscli/lscli/scenario"
)

func TestMain(m *testing.M) {
	if os.Getenv(benchChildEnv) == "1" {
		code := cmd.Main()
		writePeakRSS(os.Getenv(benchRSSFileEnv))
		os.Exit(code)
	}
	testscript.Main(m, map[string]func(){
		"lscli": func() {
			// Scripts run with the API server's mutation detector on and
			// every idle verdict checked (see package
			// internal/mutationtest); benchmarks without them.
			fakecluster.DetectMutations = true
			reconcile.VerifyIdle = true
			fastyaml.Verify = true
			code := cmd.Main()
			if err := scenario.RecordExitCode(code); err != nil {
				os.Stderr.WriteString(err.Error() + "\n")
				os.Exit(1)
			}
			os.Exit(code)
		},
	})
}

// TestScripts runs the CLI scripts in testdata/script. LSCLI_UPDATE=1 rewrites
// the golden files inside the scripts; review the diff before committing.
// Scripts have the commands of a scenario (package scenario): exitcode N
// checks the exit code of the last lscli call.
func TestScripts(t *testing.T) {
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	// Scripts read committed fixtures that a txtar cannot hold well (such
	// as what the real ocm CLI wrote, testdata/ocm) from $TESTDATA.
	testdata, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("LSCLI_UPDATE") == "1",
		Cmds:                scriptCommands(),
		Setup: func(env *testscript.Env) error {
			scenario.Setup(env)
			env.Setenv("EXAMPLES", examples)
			env.Setenv("TESTDATA", testdata)
			env.Defer(func() { checkStoredStates(env.T(), env.WorkDir) })
			return nil
		},
	})
}

// scriptCommands are a scenario's commands and scriptCmds.
func scriptCommands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	cmds := scenario.Commands(cmd.Run)
	maps.Copy(cmds, scriptCmds)
	return cmds
}

// failingCall is a script line that expects lscli to fail.
var failingCall = regexp.MustCompile(`^(\[[^]]*\]\s*)*!\s*(exec\s+)?lscli\b`)

// TestScriptsCheckExitCodes: every lscli call a script expects to fail is
// followed by "exitcode N", so that the exact exit code is part of the
// contract the scripts check (a bare "! exec" accepts any non-zero code).
func TestScriptsCheckExitCodes(t *testing.T) {
	files, err := filepath.Glob("../testdata/script/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		script, _, _ := strings.Cut(string(data), "\n-- ")
		sc := bufio.NewScanner(strings.NewReader(script))
		line, pending := 0, 0
		for sc.Scan() {
			line++
			text := strings.TrimSpace(sc.Text())
			switch {
			case text == "" || strings.HasPrefix(text, "#"):
				continue
			case pending > 0 && !strings.HasPrefix(text, "exitcode "):
				t.Errorf("%s:%d: the lscli call that fails is not followed by 'exitcode N'", filepath.Base(file), pending)
			}
			pending = 0
			if failingCall.MatchString(text) {
				pending = line
			}
		}
		if pending > 0 {
			t.Errorf("%s:%d: the lscli call that fails is not followed by 'exitcode N'", filepath.Base(file), pending)
		}
	}
}
