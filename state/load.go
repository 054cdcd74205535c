package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/internal/parallel"
	"github.com/lscli/lscli/reconcile"
)

// resetHint ends every error about a state file that exists but cannot be
// used: lscli never starts over on its own.
const resetHint = "fix the file, or remove it with 'lscli reset' to start over"

// Load reads <folder>/state.json. Objects come back as the Go types scheme
// registers for their apiVersion and kind, with TypeMeta set.
//
// When the folder or the state file does not exist, Load returns a nil
// Snapshot and an error wrapping ErrNoState. A state file that exists but
// cannot be read or decoded (bad JSON, unknown kind, unsupported format
// version) is an error that names the file, and, where it can, the line.
func (d *Dir) Load(scheme *runtime.Scheme) (*Snapshot, error) {
	path := d.file(stateFileName)
	info, statErr := os.Stat(path)
	data, lines, err := readLines(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("state %s: %w", show(d.dir()), ErrNoState)
	}
	if err != nil {
		return nil, fmt.Errorf("read state: %w", err)
	}
	snap, l, err := decodeSplit(data, lines, scheme)
	if err != nil {
		return nil, fmt.Errorf("read state %s: %w (%s)", show(path), err, resetHint)
	}
	// Save copies lines only from a file whose every line it has decoded
	// alone: one laid out otherwise may hold more than an element a line.
	// What identifies the objects is taken before Restore fills in what
	// they lack.
	d.previous, d.objectLineNos, d.saved = nil, nil, nil
	if l != nil {
		d.objectLineNos = make([]int, len(l.sections[2]))
		for i, ln := range l.sections[2] {
			d.objectLineNos[i] = ln.no
		}
	}
	if statErr == nil && l != nil {
		d.previous = &fileLines{info: info,
			objects: objectLines(data, l.sections[2], func(i int) ObjectHeader { return headerOf(snap.Objects[i]) })}
		if events, ok := elementLines(data, l.sections[1]); ok {
			d.previous.events, d.previous.eventValues = events, snap.Events
		}
	}
	return snap, nil
}

// ObjectError returns err, which says why object i of the snapshot d's
// last Load returned cannot be used, as Load reports what it cannot use in
// a state file: naming the file and the object's line (its index where the
// file is laid out otherwise), with what to do about it.
func (d *Dir) ObjectError(i int, err error) error {
	where := fmt.Sprintf("objects[%d]", i)
	if i >= 0 && i < len(d.objectLineNos) {
		where = fmt.Sprintf("line %d", d.objectLineNos[i])
	}
	return d.loadedError(where, err)
}

// TimerError is ObjectError for the i-th timer.
func (d *Dir) TimerError(i int, err error) error {
	return d.loadedError(fmt.Sprintf("timers[%d]", i), err)
}

// HeaderError is ObjectError for what the header of the file holds (the
// seed, the random source, the clock).
func (d *Dir) HeaderError(err error) error {
	where := "the header"
	if d.objectLineNos != nil {
		where = "line 1"
	}
	return d.loadedError(where, err)
}

func (d *Dir) loadedError(where string, err error) error {
	return fmt.Errorf("read state %s: %s: %w (%s)", show(d.file(stateFileName)), where, err, resetHint)
}

// decode parses a state file. The fast way relies on the layout Save writes
// (one element a line, decoded in parallel); a file that is valid JSON in
// another layout, e.g. reformatted by hand, is decoded as a whole instead.
func decode(data []byte, scheme *runtime.Scheme) (*Snapshot, error) {
	snap, _, err := decodeSplit(data, splitLines(data), scheme)
	return snap, err
}

// decodeSplit is decode of data split into lines already. byLine, when not
// nil, is the file in Save's layout, which was decoded one element a line.
func decodeSplit(data []byte, lines []line, scheme *runtime.Scheme) (snap *Snapshot, byLine *layout, err error) {
	l, ok := splitSections(lines, len(sectionNames))
	if !ok {
		snap, err = decodeDocument(data, scheme)
		return snap, nil, err
	}
	if snap, err = l.decode(scheme); err == nil {
		return snap, l, nil
	}
	// Lines that fit the layout may still be one valid document laid out
	// differently; only if that fails too is the file broken. The line-based
	// error is reported, since it names the line.
	if snap, err2 := decodeDocument(data, scheme); err2 == nil {
		return snap, nil, nil
	}
	return nil, nil, err
}

// decodeHeader decodes the first line's fields and checks the version.
func decodeHeader(data []byte) (header, error) {
	var h header
	if err := json.Unmarshal(data, &h); err != nil {
		return h, fmt.Errorf("header: %w", err)
	}
	return h, checkVersion(h.Version)
}

// checkVersion rejects a format this lscli cannot read.
func checkVersion(v int) error {
	if v != formatVersion {
		return fmt.Errorf("format version %d is not supported (this lscli reads version %d)", v, formatVersion)
	}
	return nil
}

// requiredKeys are the keys every state file has: Save writes them all, so
// a file without one of them was cut or edited, and loading it would lose
// what it held (a state without "objects" would load as an empty
// simulation, and the next save would write it back empty).
var requiredKeys = append([]string{"version", "seed", "rand", "clock"}, sectionNames[:]...)

// checkSections reports the first required key that data, a JSON object,
// lacks, or the first section (timers, events, objects) that is null.
func checkSections(data []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return err
	}
	for _, k := range requiredKeys {
		v, ok := keys[k]
		switch {
		case !ok:
			return fmt.Errorf("%q is missing: a state file has %s", k, strings.Join(requiredKeys, ", "))
		case string(bytes.TrimSpace(v)) == "null" && slices.Contains(sectionNames[:], k):
			return fmt.Errorf("%q is null: a state file has %s", k, strings.Join(requiredKeys, ", "))
		}
	}
	return nil
}

// decodeTimer decodes one element of the timers section.
func decodeTimer(data []byte, into *reconcile.Timer) error {
	if err := fastjson.Unmarshal(data, into); err != nil {
		return fmt.Errorf("timer: %w", err)
	}
	return checkTimer(into)
}

// checkTimer refuses a timer that names no controller or object: the
// simulation would have nothing to wake (a file edited by hand).
func checkTimer(t *reconcile.Timer) error {
	if t.Controller == "" || t.Name == "" || t.Due.IsZero() {
		return fmt.Errorf("timer: controller, name and due are required")
	}
	return nil
}

// decodeEvent decodes one element of the events section.
func decodeEvent(data []byte, into *Event) error {
	if err := fastjson.Unmarshal(data, into); err != nil {
		return fmt.Errorf("event: %w", err)
	}
	return nil
}

// document is the state file as one JSON value, for files not in Save's
// layout. Objects stay raw until their kind is known.
type document struct {
	header
	Timers  []reconcile.Timer `json:"timers"`
	Events  []Event           `json:"events"`
	Objects []json.RawMessage `json:"objects"`
	// Clusters is the optional section of simulated cluster objects.
	Clusters []ClusterObject `json:"clusters"`
	// Applied is the optional section of applied configurations.
	Applied []AppliedConfig `json:"applied"`
}

// decodeDocument decodes a state file in any JSON layout.
func decodeDocument(data []byte, scheme *runtime.Scheme) (*Snapshot, error) {
	var doc document
	if err := json.Unmarshal(data, &doc); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := position(data, syn.Offset)
			return nil, fmt.Errorf("line %d, column %d: %w", line, col, err)
		}
		return nil, err
	}
	if err := checkVersion(doc.Version); err != nil {
		return nil, err
	}
	if err := checkSections(data); err != nil {
		return nil, err
	}
	for i := range doc.Applied {
		if err := checkApplied(&doc.Applied[i]); err != nil {
			return nil, fmt.Errorf("applied[%d]: %w", i, err)
		}
	}
	if err := checkAppliedOnce(doc.Applied); err != nil {
		return nil, err
	}
	for i := range doc.Timers {
		if err := checkTimer(&doc.Timers[i]); err != nil {
			return nil, fmt.Errorf("timers[%d]: %w", i, err)
		}
	}
	objects := make([]fakecluster.Object, len(doc.Objects))
	err := parallel.ForChunks(len(doc.Objects), minChunk, func(_, lo, hi int) error {
		for i := lo; i < hi; i++ {
			obj, err := decodeObject(scheme, doc.Objects[i])
			if err != nil {
				return fmt.Errorf("objects[%d]: %w", i, err)
			}
			objects[i] = obj
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Snapshot{
		Seed: doc.Seed, Rand: doc.Rand, Clock: doc.Clock, ComponentRoots: doc.ComponentRoots, ConfigFile: doc.ConfigFile,
		UnservedTypes: doc.UnservedTypes,
		Timers:        nilIfEmpty(doc.Timers), Events: nilIfEmpty(doc.Events), Objects: nilIfEmpty(objects),
		Clusters: nilIfEmpty(doc.Clusters), Applied: nilIfEmpty(doc.Applied),
	}, nil
}

// nilIfEmpty makes an empty section nil, as in a Snapshot decoded line-wise.
func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// position turns a byte offset (just past the error, as json.SyntaxError
// reports it) into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	before := data[:max(0, min(int(offset)-1, len(data)))]
	line = 1 + bytes.Count(before, []byte("\n"))
	return line, len(before) - bytes.LastIndexByte(before, '\n')
}
