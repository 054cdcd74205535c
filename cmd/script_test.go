package cmd_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lscli/lscli/cmd"
)

func TestMain(m *testing.M) {
	if os.Getenv(benchChildEnv) == "1" {
		os.Exit(cmd.Main())
	}
	testscript.Main(m, map[string]func(){
		"lscli": func() { os.Exit(cmd.Main()) },
	})
}

// TestScripts runs the CLI scripts in testdata/script. LSCLI_UPDATE=1 rewrites
// the golden files inside the scripts; review the diff before committing.
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
			return nil
		},
	})
}
