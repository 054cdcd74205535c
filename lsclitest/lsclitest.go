package lsclitest

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lscli/lscli/cmd"
	"github.com/lscli/lscli/scenario"
)

// UpdateVar is the environment variable that, set to 1, makes Run rewrite
// golden files as Options.Update does.
const UpdateVar = "LSCLI_UPDATE"

// Options say which scenario files Run runs and how.
type Options struct {
	// Dir is a folder whose *.txtar files are scenarios (not its
	// sub-folders). Used when Files is empty.
	Dir string
	// Files are scenario files; they take the place of Dir.
	Files []string
	// Update rewrites the golden files inside the scenario files that a
	// cmp finds different. Defaults to false, or true when LSCLI_UPDATE=1.
	Update bool
	// Setup, when set, runs after lscli's own setup of each script, e.g.
	// to set environment variables the scripts use.
	Setup func(*testscript.Env) error
	// Cmds are more commands for the scripts; lscli and exitcode are
	// lscli's own.
	Cmds map[string]func(ts *testscript.TestScript, neg bool, args []string)
}

// Run runs each scenario file as a subtest of t. The subtests run in
// parallel; their lscli calls take turns. A folder without scenario files,
// or one that cannot be read, fails t.
func Run(t *testing.T, o Options) {
	t.Helper()
	files := o.Files
	if len(files) == 0 {
		var err error
		if files, err = filepath.Glob(filepath.Join(o.Dir, "*.txtar")); err != nil {
			t.Fatalf("scenarios in %s: %v", o.Dir, err)
		}
		sort.Strings(files)
	}
	if len(files) == 0 {
		t.Fatalf("no scenario files (*.txtar) in %s", o.Dir)
	}
	opts := scenario.Options{Update: o.Update || os.Getenv(UpdateVar) == "1", Setup: o.Setup, Cmds: o.Cmds}
	for _, file := range files {
		p, err := scenario.Params(cmd.Run, file, opts)
		if err != nil {
			t.Fatal(err)
		}
		testscript.Run(t, p)
	}
}
