package scenario

import (
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// Outcome is how a scenario went.
type Outcome string

// The outcomes of a scenario.
const (
	Passed  Outcome = "PASS"
	Failed  Outcome = "FAIL"
	Skipped Outcome = "SKIP"
)

// Result is how one scenario file went.
type Result struct {
	// Name is the file's name without its extension.
	Name string
	// File is the file's path as given.
	File string
	// Outcome says whether it passed, failed or was skipped.
	Outcome Outcome
	// Log is what the script did: each command and its output, and why it
	// failed. It is empty for a scenario that passed, unless
	// Options.Verbose. Phase timings are left out, so the same scenario
	// gives the same log.
	Log string
}

// Run runs the scenario files one after another, each in a new working
// directory, and returns how each went, in the order of files. An error is
// a file that cannot be run at all (e.g. it does not exist).
func Run(main Main, files []string, o Options) ([]Result, error) {
	results := make([]Result, 0, len(files))
	for _, file := range files {
		p, err := Params(main, file, o)
		if err != nil {
			return nil, err
		}
		root := &scriptT{verbose: o.Verbose}
		root.run(func() { testscript.RunT(root, p) })
		if root.failed && len(root.subs) == 0 {
			return nil, fmt.Errorf("scenario %s: %s", file, strings.TrimSpace(root.log.String()))
		}
		for _, sub := range root.subs {
			results = append(results, sub.result(file, p.Files[0], o.Verbose))
		}
	}
	return results, nil
}

// scriptT is the testscript.T of one scenario run outside `go test`: the
// script runs on its own goroutine, and FailNow and Skip end that goroutine
// as they end a test's.
type scriptT struct {
	name    string
	verbose bool
	mu      sync.Mutex
	log     strings.Builder
	failed  bool
	skipped bool
	subs    []*scriptT
}

var _ testscript.T = (*scriptT)(nil)

// run runs f on a goroutine of its own and waits for it.
func (t *scriptT) run(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// Run runs f as the sub-test name and waits for it: scenarios run one
// after another.
func (t *scriptT) Run(name string, f func(testscript.T)) {
	sub := &scriptT{name: name, verbose: t.verbose}
	t.subs = append(t.subs, sub)
	sub.run(func() { f(sub) })
}

// Parallel does nothing: scenarios run one after another.
func (t *scriptT) Parallel() {}

// Log keeps args in the log.
func (t *scriptT) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintln(&t.log, args...)
}

// Fatal logs args and fails.
func (t *scriptT) Fatal(args ...any) {
	t.Log(args...)
	t.FailNow()
}

// FailNow marks the scenario failed and ends its goroutine.
func (t *scriptT) FailNow() {
	t.failed = true
	runtime.Goexit()
}

// Skip logs args, marks the scenario skipped and ends its goroutine.
func (t *scriptT) Skip(args ...any) {
	t.Log(args...)
	t.skipped = true
	runtime.Goexit()
}

// Verbose is true with Options.Verbose.
func (t *scriptT) Verbose() bool { return t.verbose }

// phaseTime is the wall time testscript adds to a phase's heading.
var phaseTime = regexp.MustCompile(`(?m)^(#.*) \(\d+\.\d+s\)$`)

// result is how the scenario of file went; abs is the file's absolute
// path, which testscript's messages show and the log shows as file.
func (t *scriptT) result(file, abs string, verbose bool) Result {
	r := Result{Name: t.name, File: filepath.ToSlash(file), Outcome: Passed}
	switch {
	case t.failed:
		r.Outcome = Failed
	case t.skipped:
		r.Outcome = Skipped
	}
	if r.Outcome != Passed || verbose {
		r.Log = strings.ReplaceAll(phaseTime.ReplaceAllString(t.log.String(), "$1"), abs, r.File)
	}
	return r
}
