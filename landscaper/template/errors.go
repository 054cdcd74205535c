package template

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	gotmpl "text/template"

	"github.com/lscli/lscli/internal/limits"
)

// Error is a template execution that failed. It says where, when known: the
// file (or the inline template) and the line and column, or the line of the
// rendered output for a "<no value>".
type Error struct {
	// File is the blueprint file the error is in; "" means the inline template.
	File string
	// Line and Column are 1-based; 0 means unknown.
	Line, Column int
	// Output is true when Line and Column point into the rendered output.
	Output bool
	// Err says what went wrong.
	Err error
	// Spiff, for a Spiff template that failed to evaluate, is Spiff's
	// message as Landscaper's spiff templater gets it (several lines, the
	// template named "template"), before the template input it appends;
	// Err has it on one line. "" for other errors.
	Spiff string
	// Go, for a GoTemplate template that failed to parse or to execute
	// (also in a file it includes), is what Landscaper's GoTemplate
	// templater gets from text/template; nil for other errors, for an
	// included file that cannot be read for another reason than that it
	// does not exist, and for lscli's limits.
	Go *GoMessage
	// source is the text Line refers to, for Snippet.
	source string
}

// Error is "<location>: <what went wrong>", or only the latter when the
// location is unknown.
func (e *Error) Error() string {
	loc := e.Location()
	if loc == "" {
		return e.Err.Error()
	}
	return loc + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Location says where the error is, e.g. "line 4, column 12",
// "templates/deploy.tpl line 4" or "output line 7, column 9"; "" when unknown.
func (e *Error) Location() string {
	if e.Line == 0 {
		if e.File != "" {
			return e.File
		}
		return ""
	}
	loc := fmt.Sprintf("line %d", e.Line)
	if e.Column > 0 {
		loc += fmt.Sprintf(", column %d", e.Column)
	}
	switch {
	case e.Output:
		return "output " + loc
	case e.File != "":
		return e.File + " " + loc
	}
	return loc
}

// Snippet returns the lines around Line, numbered, with a marker under
// Column, or "" when the line is not known.
func (e *Error) Snippet() string {
	lines := strings.Split(e.source, "\n")
	if e.Line < 1 || e.Line > len(lines) {
		return ""
	}
	var b strings.Builder
	for i := max(1, e.Line-2); i <= min(len(lines), e.Line+2); i++ {
		fmt.Fprintln(&b, strings.TrimRight(fmt.Sprintf("%5d | %s", i, lines[i-1]), " "))
		if i == e.Line && e.Column > 0 {
			fmt.Fprintf(&b, "      | %s^\n", strings.Repeat(" ", e.Column-1))
		}
	}
	return b.String()
}

// goErrorPos finds "template: NAME:LINE:COL: " in text/template errors.
var goErrorPos = regexp.MustCompile(`template: ([^:\n]+):(\d+)(?::(\d+))?: `)

// instrumentCall is the call of a function the parse tree was instrumented
// with (see rewrite.go) in an error: the user did not write it.
var instrumentCall = regexp.MustCompile(`^at <(` + stepFunc + `|` + outputFunc + `)>: error calling (` + stepFunc + `|` + outputFunc + `): `)

// executingPrefix is text/template's `executing "NAME" at ` phrase.
var executingPrefix = regexp.MustCompile(`^executing "[^"]*" at `)

// undefinedFunc is text/template's parse error for a function it does not know.
var undefinedFunc = regexp.MustCompile(`function "([^"]+)" not defined`)

// formerFuncs says, for template functions Landscaper had and removed, what
// to call instead; older blueprints still call them.
var formerFuncs = map[string]string{
	// pkg/landscaper/installations/executions/template/gotemplate/funcs.go
	// lost resolveArtifactFunc with the cnudie implementation (#1146).
	"resolve": `Landscaper removed the function resolve in v0.109.0 (gardener/landscaper#1146): read a resource's ` +
		`content with getResourceContent and a resource reference, e.g. getResourceContent "cd://resources/<name>" ` +
		`(base64 for a blob of media type application/octet-stream, else the text)`,
}

// FormerFunc says, for a template function Landscaper had and removed, what
// to call instead; it is empty for any other name.
func FormerFunc(name string) string {
	return formerFuncs[name]
}

// newGoError turns a text/template error into an *Error at the innermost
// position it names (errors in included files name the included file).
func newGoError(err error, name, text string, fsys fs.FS) error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	msg := err.Error()
	all := goErrorPos.FindAllStringSubmatchIndex(msg, -1)
	if len(all) == 0 {
		return &Error{Err: err}
	}
	m := all[len(all)-1]
	file := msg[m[2]:m[3]]
	line, _ := strconv.Atoi(msg[m[4]:m[5]])
	col := 0
	if m[6] >= 0 {
		col, _ = strconv.Atoi(msg[m[6]:m[7]])
	}
	rest := executingPrefix.ReplaceAllString(msg[m[1]:], "at ")
	rest = instrumentCall.ReplaceAllString(rest, "")
	if m := undefinedFunc.FindStringSubmatch(rest); m != nil && formerFuncs[m[1]] != "" {
		rest += "; " + formerFuncs[m[1]]
	}
	out := &Error{File: file, Line: line, Column: col, Err: &causedError{msg: rest, cause: err}, source: text, Go: goMessage(err, name, text, fsys)}
	if file == inlineName {
		out.File = ""
	} else if file != name && fsys != nil {
		data, _ := fs.ReadFile(fsys, file)
		out.source = string(data)
	}
	return out
}

// causedError is a message rewritten from cause, which errors.Is and
// errors.As still see (e.g. a *limits.Error that a template function raised).
type causedError struct {
	msg   string
	cause error
}

func (e *causedError) Error() string { return e.msg }
func (e *causedError) Unwrap() error { return e.cause }

// OutputError is err at a line of out, the rendered output of a template,
// for Snippet to show the lines around it.
func OutputError(out []byte, line int, err error) *Error {
	return &Error{Line: line, Output: true, source: string(out), Err: err}
}

// noValue is what text/template prints for a missing value.
const noValue = "<no value>"

// checkNoValue reports the first "<no value>" in out.
func checkNoValue(out []byte) error {
	text := string(out)
	for i, line := range strings.Split(text, "\n") {
		if col := strings.Index(line, noValue); col >= 0 {
			return &Error{Line: i + 1, Column: col + 1, Output: true, source: text,
				Err: fmt.Errorf("the template rendered %s, so a value it reads does not exist: %q", noValue, strings.TrimSpace(line))}
		}
	}
	return nil
}

// GoMessage is text/template's error as Landscaper's GoTemplate templater
// gets it.
type GoMessage struct {
	// Message is text/template's message, the template named "execution"
	// as Landscaper names every GoTemplate template it parses, included
	// files too.
	Message string
	// Parse is true for an error of parsing the template, false for one of
	// executing it.
	Parse bool
	// Source is the text of the execution's template.
	Source string
	// Included, when a file the template includes does not parse, is the
	// text of that file, and IncludedAt where its parse error starts in
	// Message: Landscaper's include builds that error with the file's
	// source before the including template's error wraps it.
	Included   string
	IncludedAt int
}

// landscaperGoName is the name Landscaper's GoTemplate templater gives
// every template (TemplateExecution.Execute in
// pkg/landscaper/installations/executions/template/gotemplate).
const landscaperGoName = "execution"

// includeCall is how text/template's message of an include that failed
// goes on, before the included file's error.
const includeCall = "error calling include: "

// templatePos finds the template names of text/template's messages
// ("template: NAME:LINE").
var templatePos = regexp.MustCompile(`template: ([^:\n]+):[0-9]+`)

// parseErrorStart is the start of text/template's parse error, which has
// a line and no column.
var parseErrorStart = regexp.MustCompile(`^template: ([^:\n]+):[0-9]+: `)

// goMessage returns err, text/template's error for the template name of
// text, as Landscaper's GoTemplate templater gets it, or nil when
// Landscaper's error would not be the same: an included file that cannot
// be read for another reason than that it does not exist, or one of
// lscli's functions that watch the limits. A function's error that
// Landscaper words otherwise (LandscaperMessage, e.g. include's) has
// Landscaper's words. fsys has the files the template includes.
func goMessage(err error, name, text string, fsys fs.FS) *GoMessage {
	msg := err.Error()
	if strings.Contains(msg, stepFunc) || strings.Contains(msg, outputFunc) {
		return nil
	}
	var le *limits.Error
	if errors.As(err, &le) || !strings.HasPrefix(msg, "template: "+name+":") {
		return nil
	}
	// A function's error that Landscaper's function words otherwise.
	var worded interface {
		error
		LandscaperMessage() string
	}
	landscaperWords := ""
	if errors.As(err, &worded) {
		landscaperWords = worded.LandscaperMessage()
		msg = strings.Replace(msg, worded.Error(), landscaperWords, 1)
	}
	gm := &GoMessage{Source: text}
	// Every file is a template of its own name in lscli, and "execution"
	// in Landscaper: rename the files the message names, the template and
	// the included ones (not the templates they define).
	names := []string{name}
	if i := strings.LastIndex(msg, includeCall); i >= 0 {
		// The included file's error, or include's own in Landscaper's
		// words (a file that cannot be read or is included too deeply).
		inner := msg[i+len(includeCall):]
		if !strings.HasPrefix(inner, "template: ") && (landscaperWords == "" || inner != landscaperWords) {
			return nil
		}
		if m := parseErrorStart.FindStringSubmatch(inner); m != nil && fsys != nil {
			data, err := fs.ReadFile(fsys, m[1])
			if err != nil {
				return nil
			}
			gm.Included = string(data)
		}
		for _, m := range templatePos.FindAllStringSubmatch(msg, -1) {
			names = append(names, m[1])
		}
	}
	for _, n := range names {
		msg = strings.ReplaceAll(msg, "template: "+n+":", "template: "+landscaperGoName+":")
		msg = strings.ReplaceAll(msg, `executing "`+n+`"`, `executing "`+landscaperGoName+`"`)
	}
	if gm.Included != "" {
		gm.IncludedAt = strings.LastIndex(msg, includeCall) + len(includeCall)
	}
	var ee gotmpl.ExecError
	gm.Message, gm.Parse = msg, !errors.As(err, &ee)
	return gm
}
