package cmd_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/lscli/lscli/cmd"
	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/internal/nonet"
)

// TestNoNetwork runs the lscli commands of every CLI script, in process,
// with every network attempt (HTTP through net/http's defaults, DNS through
// the default resolver) failing the test: the landscapes of the scripts,
// the bad ones of the safety_* scripts among them, open no connection.
// Outcomes are not checked here; the scripts do that.
func TestNoNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every script's commands")
	}
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := filepath.Glob("../testdata/script/*.txtar")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	attempts := nonet.Forbid(t)
	for _, script := range scripts {
		t.Run(strings.TrimSuffix(filepath.Base(script), ".txtar"), func(t *testing.T) {
			runScriptCommands(t, script, examples)
		})
	}
	if got := attempts(); len(got) > 0 {
		t.Errorf("network attempts: %q", got)
	}
}

// runScriptCommands unpacks a script's archive into a new folder and runs
// its lscli commands there, following its cd commands.
func runScriptCommands(t *testing.T, script, examples string) {
	ar, err := txtar.ParseFile(script)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(work, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copied := filepath.Join(t.TempDir(), "examples")
	if err := os.CopyFS(copied, os.DirFS(examples)); err != nil {
		t.Fatal(err)
	}
	// $TESTDATA's fixtures (testdata/ocm), for the scripts that read them.
	testdata := filepath.Join(t.TempDir(), "testdata")
	if strings.Contains(string(ar.Comment), "$TESTDATA") {
		if err := os.CopyFS(filepath.Join(testdata, "ocm"), os.DirFS("../testdata/ocm")); err != nil {
			t.Fatal(err)
		}
	}
	expand := strings.NewReplacer("$WORK", work, "$EXAMPLES", copied, "$TESTDATA", testdata)
	t.Chdir(work)
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		fields := strings.Fields(expand.Replace(line))
		switch {
		case len(fields) == 2 && fields[0] == "cd":
			dir := fields[1]
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(work, dir)
			}
			t.Chdir(dir)
		case len(fields) > 1:
			if args, ok := lscliArgs(fields); ok {
				streams, _, _, _ := iostreams.Test()
				cmd.Run(streams, args, func(string) string { return "" })
			}
		}
	}
}

// lscliArgs returns the arguments of a line that runs lscli: `[!] [exec]
// lscli ...`, after any [condition].
func lscliArgs(fields []string) ([]string, bool) {
	for len(fields) > 0 && strings.HasPrefix(fields[0], "[") {
		fields = fields[1:]
	}
	if len(fields) > 0 && fields[0] == "!" {
		fields = fields[1:]
	}
	if len(fields) > 0 && fields[0] == "exec" {
		fields = fields[1:]
	}
	if len(fields) > 0 && fields[0] == "lscli" {
		return unquote(fields[1:]), true
	}
	return nil, false
}

// unquote drops the single quotes testscript arguments may have.
func unquote(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.Trim(a, "'")
	}
	return out
}
