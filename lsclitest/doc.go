// Package lsclitest runs lscli scenario files in Go tests, as `lscli test`
// runs them on the command line: testscript scripts (txtar archives) in which
// lscli is a built-in command (see package scenario for the commands and
// the environment a script has).
//
// In a _test.go file of a landscape's repository:
//
//	func TestScenarios(t *testing.T) {
//		lsclitest.Run(t, lsclitest.Options{Dir: "scenarios"})
//	}
//
// Each scenario file is a subtest named after it, so `go test -run
// TestScenarios/deploy` runs one. LSCLI_UPDATE=1 go test rewrites the golden
// files inside the scenario files that a cmp finds different; review the
// diff before committing.
//
// lscli reads relative paths from the process's working directory, so the
// lscli command changes it while it runs, under a lock shared by every
// scenario of the test binary: do not run scenarios in parallel with other
// tests that rely on the working directory.
package lsclitest
