package scenario

import (
	"fmt"
	"maps"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

// Options change how scenario files run. The zero value runs them as they
// are.
type Options struct {
	// Update rewrites the files a failing cmp compares against, when they
	// are part of the scenario file (testscript's UpdateScripts): golden
	// output is then what lscli printed. Review the diff before committing.
	Update bool
	// Verbose keeps the log of scenarios that pass, too.
	Verbose bool
	// Setup, when set, runs after lscli's own setup of each script, e.g. to
	// set more environment variables.
	Setup func(*testscript.Env) error
	// Cmds are more commands for the scripts; lscli's own take precedence.
	Cmds map[string]func(ts *testscript.TestScript, neg bool, args []string)
}

// Params returns the testscript parameters that run the scenario file with
// main as the lscli command: lscli's commands (Commands), SCRIPTDIR, and
// the options.
func Params(main Main, file string, o Options) (testscript.Params, error) {
	// Absolute, since the lscli calls of other scripts change the working
	// directory while this one starts.
	abs, err := filepath.Abs(file)
	if err != nil {
		return testscript.Params{}, fmt.Errorf("scenario %s: %w", file, err)
	}
	dir := filepath.Dir(abs)
	cmds := maps.Clone(o.Cmds)
	if cmds == nil {
		cmds = map[string]func(*testscript.TestScript, bool, []string){}
	}
	maps.Copy(cmds, Commands(main))
	return testscript.Params{
		Files:              []string{abs},
		Cmds:               cmds,
		UpdateScripts:      o.Update,
		RequireUniqueNames: true,
		Setup: func(env *testscript.Env) error {
			Setup(env)
			env.Setenv("SCRIPTDIR", dir)
			if o.Setup != nil {
				return o.Setup(env)
			}
			return nil
		},
	}, nil
}

// Setup sets the environment every scenario has: where exit codes go, and
// no color unless the script asks for it.
func Setup(env *testscript.Env) {
	env.Setenv(ExitCodeVar, exitCodeFile(env))
	env.Setenv("NO_COLOR", "")
	env.Setenv("CLICOLOR_FORCE", "")
}
