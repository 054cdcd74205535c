// Package scenario runs lscli scenario files: testscript scripts (txtar
// archives, github.com/rogpeppe/go-internal/testscript) in which lscli is a
// built-in command that runs in the same process. It is what `lscli test`
// and package lsclitest run, and what lscli's own CLI scripts use to check
// exit codes.
//
// A scenario file holds a script and the files it needs:
//
//	# reconcile: the landscape of the repository succeeds.
//	lscli reconcile $SCRIPTDIR/../landscape
//	cmp stdout want-tree
//
//	# a bad file is invalid input: exit 2.
//	! lscli reconcile bad.yaml
//	exitcode 2
//
//	-- want-tree --
//	Installation example/demo  Succeeded  job fef55fe0
//	...
//	-- bad.yaml --
//	kind: [
//
// Besides testscript's own commands (cmp, stdout, stderr, exists, env, cd,
// exec, ...) a script has:
//
//   - lscli ARGS...: runs lscli with ARGS in the script's working directory
//     and environment; stdout and stderr are kept for cmp, stdout and
//     stderr. "! lscli" expects a non-zero exit code.
//   - exitcode N: the last lscli call exited with code N (see docs/cli.md
//     for the codes: 2 invalid input, 3 a root failed, 4 unfinished).
//
// and the environment variable SCRIPTDIR, the folder that holds the
// scenario file, so that a script reaches the landscape of its repository.
// Every script runs in a new, empty working directory ($WORK), so the
// simulation's state (.lscli) starts empty.
//
// lscli resolves relative paths against the process's working directory,
// so the lscli command changes it while it runs, under a lock: lscli calls
// of scripts that run in parallel take turns.
package scenario
