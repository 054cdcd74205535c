package action

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/lscli/lscli/scenario"
)

// Test runs scenario files, testscript scripts in which lscli is a built-in
// command (see package scenario): `lscli test`.
type Test struct {
	main scenario.Main
	// Paths are scenario files, and folders whose *.txtar files (in any
	// sub-folder but hidden ones) are scenarios. None means the working
	// directory.
	Paths []string
	// Match, when set, is a regular expression (-run): only the scenarios whose name
	// (the file name without extension) it matches run.
	Match string
	// Options are how the scenarios run: Update rewrites goldens, Verbose
	// keeps the logs of scenarios that pass.
	Options scenario.Options
}

// NewTest returns the test action, which runs lscli with main.
func NewTest(main scenario.Main) *Test { return &Test{main: main} }

// TestResult is how the scenarios went.
type TestResult struct {
	// Results are the scenarios, in the order run: by path.
	Results []scenario.Result
}

// Count returns how many scenarios had outcome o.
func (r *TestResult) Count(o scenario.Outcome) int {
	n := 0
	for _, s := range r.Results {
		if s.Outcome == o {
			n++
		}
	}
	return n
}

// ExitCode is 1 when a scenario failed, else 0, as `go test` has it.
func (r *TestResult) ExitCode() int {
	if r.Count(scenario.Failed) > 0 {
		return 1
	}
	return ExitOK
}

// Run finds the scenario files and runs those -run selects. No file, a
// path that does not exist and a bad -run expression are invalid input.
func (a *Test) Run(_ context.Context) (*TestResult, error) {
	var match *regexp.Regexp
	if a.Match != "" {
		var err error
		if match, err = regexp.Compile(a.Match); err != nil {
			return nil, Invalidf("invalid -run %q: %v", a.Match, err)
		}
	}
	paths := a.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := scenarioFiles(paths)
	if err != nil {
		return nil, err
	}
	var selected []string
	for _, f := range files {
		if match == nil || match.MatchString(scenarioName(f)) {
			selected = append(selected, f)
		}
	}
	if len(selected) == 0 {
		return nil, Invalidf("no scenario files (*.txtar) in %s%s", strings.Join(paths, ", "), runText(a.Match))
	}
	results, err := scenario.Run(a.main, selected, a.Options)
	if err != nil {
		return nil, err
	}
	return &TestResult{Results: results}, nil
}

// runText says which -run selected nothing.
func runText(run string) string {
	if run == "" {
		return ""
	}
	return " match -run " + run
}

// scenarioName is the name of a scenario file: its base name without
// extension.
func scenarioName(file string) string {
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// scenarioFiles returns the files among paths and the *.txtar files below
// the folders among them, sorted within each folder.
func scenarioFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, Invalidf("scenario %s: %v", filepath.ToSlash(p), errors.Unwrap(err))
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && path != p && strings.HasPrefix(d.Name(), "."):
				return fs.SkipDir
			case !d.IsDir() && strings.HasSuffix(d.Name(), ".txtar"):
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, Invalidf("scenarios in %s: %v", filepath.ToSlash(p), err)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}
