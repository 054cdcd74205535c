package cmd_test

import "github.com/rogpeppe/go-internal/testscript"

// scriptCmds are the commands of the CLI scripts besides testscript's own
// and a scenario's (lscli, exitcode); see script_cmds_unix_test.go.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}
