package output

import (
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/lscli/lscli/scenario"
)

// TestReport shows how scenarios went, as `go test -v` does: a line
// "--- PASS: name (file)" (FAIL, SKIP) per scenario, followed by its log,
// indented, when it has one. It is a pure function.
func TestReport(results []scenario.Result) string {
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "--- %s: %s (%s)\n", r.Outcome, r.Name, r.File)
		if log := strings.TrimRight(r.Log, "\n"); log != "" {
			b.WriteString("    " + strings.ReplaceAll(log, "\n", "\n    ") + "\n")
		}
	}
	return b.String()
}

// JUnit writes results as a JUnit XML report, which CI systems show as test
// results: one testsuite per folder of scenario files, one testcase per
// scenario (classname: the folder; file: the scenario file) with a failure
// or skipped element and the scenario's log. It has no times, so the same
// results give the same bytes.
func JUnit(results []scenario.Result, w io.Writer) error {
	report := junitSuites{Name: "lscli test"}
	index := map[string]int{}
	for _, r := range results {
		dir := path.Dir(r.File)
		i, ok := index[dir]
		if !ok {
			i = len(report.Suites)
			index[dir] = i
			report.Suites = append(report.Suites, junitSuite{Name: dir})
		}
		s := &report.Suites[i]
		c := junitCase{Name: r.Name, Classname: dir, File: r.File}
		switch r.Outcome {
		case scenario.Failed:
			c.Failure = &junitText{Message: "scenario failed", Type: "failure", Text: r.Log}
			s.Failures++
		case scenario.Skipped:
			c.Skipped = &junitText{Message: "scenario skipped", Text: r.Log}
			s.Skipped++
		default:
			if r.Log != "" {
				c.SystemOut = &junitLog{Text: r.Log}
			}
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	for _, s := range report.Suites {
		report.Tests, report.Failures, report.Skipped = report.Tests+s.Tests, report.Failures+s.Failures, report.Skipped+s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(report); err != nil {
		return fmt.Errorf("encode junit report: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitSuites is the <testsuites> element of a JUnit report.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

// junitSuite is one <testsuite>: the scenarios of one folder.
type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

// junitCase is one <testcase>: one scenario.
type junitCase struct {
	Name      string     `xml:"name,attr"`
	Classname string     `xml:"classname,attr"`
	File      string     `xml:"file,attr"`
	Failure   *junitText `xml:"failure,omitempty"`
	Skipped   *junitText `xml:"skipped,omitempty"`
	SystemOut *junitLog  `xml:"system-out,omitempty"`
}

// junitText is a <failure> or <skipped> element.
type junitText struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// junitLog is a <system-out> element.
type junitLog struct {
	Text string `xml:",cdata"`
}
