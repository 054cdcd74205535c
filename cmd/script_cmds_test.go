package cmd_test

import (
	"errors"
	"os/exec"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are the custom commands of the CLI scripts.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"exits": exits,
}

// exits runs a program and asserts its exact exit code, as `! exec` cannot:
//
//	exits 2 lscli validate bad.yaml
//
// Its stdout and stderr are kept for cmp and stdout/stderr, as exec's are.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: code %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
