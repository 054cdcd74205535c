package state

import (
	"bytes"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/parallel"
)

// line is one line of the state file, without its newline.
type line struct {
	no   int // 1-based
	text []byte
}

// layout is a state file split along the lines Save writes:
//
//	{"version":1,"seed":...,"rand":"...","clock":"...",
//	"timers":[
//	{...},
//	{...}
//	],
//	"events":[
//	...
//	],
//	"objects":[
//	...
//	]}
type layout struct {
	header   []byte // the first line made a JSON object of its own
	sections [len(sectionNames)][]line
	// clusters and applied are the optional last sections (see
	// optionalSections).
	clusters, applied []line
}

// splitLayout splits data into header and section elements. It reports false
// when data does not follow Save's layout; the elements are not parsed yet.
func splitLayout(data []byte) (*layout, bool) {
	return splitSections(splitLines(data), len(sectionNames))
}

// headerObject makes the first line of Save's layout, the object's opening
// and its scalar members ending in a comma, a JSON object of its own. ok is
// false for any other line.
func headerObject(first []byte) (header []byte, ok bool) {
	if len(first) < 2 || first[0] != '{' || first[len(first)-1] != ',' {
		return nil, false
	}
	return append(first[:len(first)-1:len(first)-1], '}'), true
}

// splitSections splits lines into header and the first n sections. With n
// smaller than the number of sections, what follows the opening line of
// section n is not looked at.
func splitSections(lines []line, n int) (*layout, bool) {
	if len(lines) == 0 {
		return nil, false
	}
	header, ok := headerObject(lines[0].text)
	if !ok {
		return nil, false
	}
	l := &layout{header: header}
	rest := lines[1:]
	for s, name := range sectionNames {
		if s == n {
			return l, len(rest) > 0 && string(rest[0].text) == `"`+name+`":[`
		}
		elems, after, ok := splitSection(rest, `"`+name+`":[`, sectionEnd(s))
		if !ok && s == len(sectionNames)-1 {
			var optional [len(optionalSections)][]line
			elems, optional, after, ok = splitLastSections(rest, `"`+name+`":[`)
			l.clusters, l.applied = optional[0], optional[1]
		}
		if !ok {
			return nil, false
		}
		l.sections[s], rest = elems, after
	}
	for _, ln := range rest {
		if len(ln.text) > 0 {
			return nil, false
		}
	}
	return l, true
}

// splitSection reads the opening line open, element lines of the form {...},
// with a comma after every one but the last, and the closing line end.
// It strips the commas and returns the elements and the lines after end.
func splitSection(lines []line, open, end string) (elems, rest []line, ok bool) {
	if len(lines) == 0 || string(lines[0].text) != open {
		return nil, nil, false
	}
	lines = lines[1:]
	n := 0
	for n < len(lines) && string(lines[n].text) != end {
		n++
	}
	if n == len(lines) {
		return nil, nil, false
	}
	elems = lines[:n:n]
	// Check every line before stripping any comma: lines that are not a
	// section's (a first try at the end marker that ran past the section)
	// must be left as they were for the next try.
	element := func(i int) ([]byte, bool) {
		t := elems[i].text
		if i < n-1 {
			if !bytes.HasSuffix(t, []byte(",")) {
				return nil, false
			}
			t = t[:len(t)-1]
		}
		return t, len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}'
	}
	for i := range elems {
		if _, ok := element(i); !ok {
			return nil, nil, false
		}
	}
	for i := range elems {
		elems[i].text, _ = element(i)
	}
	return elems, lines[n+1:], true
}

// splitLines splits data at newlines, dropping a trailing carriage return.
func splitLines(data []byte) []line {
	lines := make([]line, 0, bytes.Count(data, []byte("\n"))+1)
	for no := 1; len(data) > 0; no++ {
		t, rest, _ := bytes.Cut(data, []byte("\n"))
		lines = append(lines, line{no: no, text: bytes.TrimSuffix(t, []byte("\r"))})
		data = rest
	}
	return lines
}

// decode parses the header and every element, elements in parallel.
func (l *layout) decode(scheme *runtime.Scheme) (*Snapshot, error) {
	h, err := decodeHeader(l.header)
	if err != nil {
		return nil, fmt.Errorf("line 1: %w", err)
	}
	snap := &Snapshot{Seed: h.Seed, Rand: h.Rand, Clock: h.Clock, ComponentRoots: h.ComponentRoots, ConfigFile: h.ConfigFile,
		UnservedTypes: h.UnservedTypes}
	if snap.Timers, err = decodeLines(l.sections[0], decodeTimer); err != nil {
		return nil, err
	}
	if snap.Events, err = decodeEvents(l.sections[1]); err != nil {
		return nil, err
	}
	if snap.Clusters, err = decodeLines(l.clusters, decodeClusterObject); err != nil {
		return nil, err
	}
	if snap.Applied, err = decodeLines(l.applied, decodeApplied); err != nil {
		return nil, err
	}
	if err := checkAppliedOnce(snap.Applied); err != nil {
		return nil, err
	}
	snap.Objects, err = decodeLines(l.sections[2], func(b []byte, into *fakecluster.Object) (err error) {
		*into, err = decodeObject(scheme, b)
		return err
	})
	if err != nil {
		return nil, err
	}
	return snap, nil
}

// minChunk is the fewest lines worth a goroutine of their own.
const minChunk = 256

// decodeLines decodes lines in parallel chunks, each into its element of the
// result. An error names the line. No lines give a nil slice.
func decodeLines[T any](lines []line, decode func(data []byte, into *T) error) ([]T, error) {
	return decodeLinesWith(lines, func() func([]byte, *T) error { return decode })
}

// decodeLinesWith is decodeLines with a decode function of its own for each
// chunk, made by newDecode, which may keep state from line to line.
func decodeLinesWith[T any](lines []line, newDecode func() func(data []byte, into *T) error) ([]T, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	out := make([]T, len(lines))
	err := parallel.ForChunks(len(lines), minChunk, func(_, lo, hi int) error {
		decode := newDecode()
		for i := lo; i < hi; i++ {
			if err := decode(lines[i].text, &out[i]); err != nil {
				return fmt.Errorf("line %d: %w", lines[i].no, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
