package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lscli/lscli/cmd/iostreams"
)

// Main runs lscli with args on streams, looking up environment variables
// with getenv, and returns the exit code. It is cmd.Run.
type Main func(streams *iostreams.IOStreams, args []string, getenv func(string) string) int

// ExitCodeVar names the file (an environment variable of the script) where
// every lscli call writes its exit code for the exitcode command. A script
// that runs lscli as a program (exec lscli) rather than as the built-in
// command writes it with RecordExitCode.
const ExitCodeVar = "LSCLI_EXIT_CODE_FILE"

// Commands returns the commands a scenario has besides testscript's own:
// lscli, which runs main in this process, and exitcode.
func Commands(main Main) map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(*testscript.TestScript, bool, []string){
		"lscli":    lscliCmd(main),
		"exitcode": exitcodeCmd,
	}
}

// chdirMu keeps lscli calls of scripts that run in parallel from changing
// the working directory under each other.
var chdirMu sync.Mutex

// lscliCmd runs main with the script's arguments, working directory and
// environment, and fails the script when the exit code is not what the
// line expects: zero, or with "!" non-zero. A panic fails the script.
func lscliCmd(main Main) func(ts *testscript.TestScript, neg bool, args []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		code, panicked := runIn(ts.MkAbs("."), func() int {
			streams := &iostreams.IOStreams{In: strings.NewReader(""), Out: ts.Stdout(), ErrOut: ts.Stderr()}
			return main(streams, args, ts.Getenv)
		})
		if panicked != "" {
			ts.Fatalf("lscli panicked: %s", panicked)
		}
		if err := writeExitCode(ts.Getenv(ExitCodeVar), code); err != nil {
			ts.Fatalf("%v", err)
		}
		switch {
		case code != 0 && !neg:
			ts.Fatalf("lscli exited with code %d", code)
		case code == 0 && neg:
			ts.Fatalf("lscli succeeded, but the script expects it to fail")
		}
	}
}

// runIn runs f with dir as the working directory of the process, and
// recovers a panic of f.
func runIn(dir string, f func() int) (code int, panicked string) {
	chdirMu.Lock()
	defer chdirMu.Unlock()
	old, err := os.Getwd()
	if err != nil {
		return 1, fmt.Sprintf("working directory: %v", err)
	}
	if err := os.Chdir(dir); err != nil {
		return 1, fmt.Sprintf("change to %s: %v", dir, err)
	}
	defer func() {
		if r := recover(); r != nil {
			code, panicked = 1, fmt.Sprintf("%v\n%s", r, debug.Stack())
		}
		_ = os.Chdir(old)
	}()
	return f(), ""
}

// exitcodeCmd checks the exit code of the last lscli call: exitcode N.
func exitcodeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: exitcode N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("usage: exitcode N: %q is not a number", args[0])
	}
	file := ts.Getenv(ExitCodeVar)
	data, err := os.ReadFile(file)
	if err != nil {
		ts.Fatalf("exitcode: no lscli call since the last exitcode line")
	}
	_ = os.Remove(file)
	got, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		ts.Fatalf("exitcode: %s: %v", file, err)
	}
	if got != want {
		ts.Fatalf("lscli exited with code %d, want %d", got, want)
	}
}

// RecordExitCode writes code where the exitcode command of the script that
// runs this process finds it; it does nothing outside a scenario. A test
// that runs lscli as a program (testscript.Main) calls it before exiting.
func RecordExitCode(code int) error {
	return writeExitCode(os.Getenv(ExitCodeVar), code)
}

// writeExitCode writes code to file, when file is set.
func writeExitCode(file string, code int) error {
	if file == "" {
		return nil
	}
	if err := os.WriteFile(file, []byte(strconv.Itoa(code)+"\n"), 0o644); err != nil {
		return fmt.Errorf("record the exit code: %w", err)
	}
	return nil
}

// exitCodeFile is where the scripts of workdir keep the last exit code:
// in testscript's temporary folder, out of the way of the script's files.
func exitCodeFile(env *testscript.Env) string {
	return filepath.Join(env.WorkDir, ".tmp", "lscli-exit-code")
}
