package state

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/linediff"
)

func TestReadLinesSplitsAsSplitLines(t *testing.T) {
	long := strings.Repeat("x", readBlock+3) // a line across blocks
	var big bytes.Buffer
	for i := 0; big.Len() < 3*readBlock; i++ {
		big.WriteString(strings.Repeat("y", i%700))
		if i%3 == 0 {
			big.WriteString("\r")
		}
		big.WriteString("\n")
	}
	for name, content := range map[string]string{
		"empty":            "",
		"one line":         "{}",
		"newline at end":   "a\nb\n",
		"no newline":       "a\nb",
		"crlf":             "a\r\nb\r\n",
		"empty lines":      "\n\n\na\n\n",
		"line over blocks": "a\n" + long + "\nb",
		"many blocks":      big.String(),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			data, lines, err := readLines(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != content {
				t.Fatalf("data differs from the file: %d bytes, want %d", len(data), len(content))
			}
			if want := splitLines([]byte(content)); !reflect.DeepEqual(lines, want) && !(len(lines) == 0 && len(want) == 0) {
				t.Errorf("got %d lines, splitLines gives %d", len(lines), len(want))
			}
		})
	}
}

func TestReadLinesMissingFile(t *testing.T) {
	if _, _, err := readLines(filepath.Join(t.TempDir(), "none")); !os.IsNotExist(err) {
		t.Errorf("err %v, want one for a missing file", err)
	}
}

// sameAsFreshSave fails t unless the state file d saved is the file a
// save of snap into a new folder writes, which encodes every element. It
// reads d's file first: d's path is relative, and tempDir moves to the new
// folder.
func sameAsFreshSave(t *testing.T, d *Dir, snap *Snapshot) {
	t.Helper()
	got := readState(t, d)
	fresh := tempDir(t)
	if err := fresh.Save(snap, testScheme()); err != nil {
		t.Fatal(err)
	}
	if d := linediff.Describe("saved", got, "encoded", readState(t, fresh)); d != "" {
		t.Fatal("the save differs from one that encoded all: ", d)
	}
}

func TestSaveReusesUnchangedLines(t *testing.T) {
	d := tempDir(t)
	loaded := savedInStoreOrder(t, d, bigSnapshot(20))
	objs := loaded.Objects
	// Change two objects as a write would (a new resourceVersion), drop one.
	for _, i := range []int{3, len(objs) - 1} {
		objs[i].SetLabels(map[string]string{"changed": "yes"})
		objs[i].SetResourceVersion("99999")
	}
	loaded.Objects = append(objs[:7:7], objs[8:]...)
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	sameAsFreshSave(t, d, loaded)
	if want := len(loaded.Objects) - 2; d.reusedLines != want {
		t.Errorf("%d lines copied, want %d", d.reusedLines, want)
	}
	if d.copiedBytes == 0 {
		t.Error("no lines were copied as ranges of the file")
	}
}

// TestSaveCopiesRunsOfLines: a save that copies runs of unchanged lines
// from the file it replaces writes the file a save that encodes everything
// writes, over several rounds of lines, with objects changed, removed and
// added at the start, in the middle, at round ends and at the end of the
// section, and new events after the loaded ones.
func TestSaveCopiesRunsOfLines(t *testing.T) {
	d := tempDir(t)
	loaded := savedInStoreOrder(t, d, bigSnapshot(800)) // 4,800 objects, 19,200 events
	objs := loaded.Objects
	if len(objs) < 2*roundSize {
		t.Fatalf("%d objects do not fill two rounds", len(objs))
	}
	for _, i := range []int{0, 1, roundSize - 1, roundSize, roundSize + 1, 3000, len(objs) - 2, len(objs) - 1} {
		objs[i].SetLabels(map[string]string{"changed": "yes"})
		objs[i].SetResourceVersion("99999")
	}
	objs = slices.Delete(objs, 100, 103)
	extra := dataObject(900000)
	extra.SetResourceVersion("99998")
	objs = slices.Insert(objs, 500, fakecluster.Object(extra))
	c := fakecluster.New(fakecluster.Options{Scheme: testScheme()})
	if err := c.Restore(objs); err != nil {
		t.Fatal(err)
	}
	loaded.Objects = c.Objects() // in the API server's order, as a run saves them
	loaded.Events = append(slices.Clone(loaded.Events), Event{Time: epoch, Kind: "DataObject", Namespace: "default", Name: "new", Type: EventCreated})
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	if d.copiedBytes == 0 || d.reusedLines == 0 || d.reusedEvents == 0 {
		t.Fatalf("copied %d bytes, %d object and %d event lines; want some of each", d.copiedBytes, d.reusedLines, d.reusedEvents)
	}
	sameAsFreshSave(t, d, loaded)
}

// TestSaveReadsLinesItCannotCopy: writing to something that is not a
// file, the unchanged lines are read from the file replaced, at the places
// Load found them, and the result is what encoding everything writes.
func TestSaveReadsLinesItCannotCopy(t *testing.T) {
	d := tempDir(t)
	loaded := savedInStoreOrder(t, d, bigSnapshot(400)) // 2,400 objects: two rounds
	for _, i := range []int{0, roundSize, len(loaded.Objects) - 1} {
		loaded.Objects[i].SetLabels(map[string]string{"changed": "yes"})
		loaded.Objects[i].SetResourceVersion("99999")
	}
	loaded.Events = slices.Clone(loaded.Events) // the engine never changes loaded events
	loaded.Events[1].Message = "changed"
	prev := openPrevious(d.file(stateFileName), d.previous)
	if prev == nil {
		t.Fatal("the file loaded is not known as the previous file")
	}
	defer prev.close()
	var got, want bytes.Buffer
	if err := encode(&got, loaded, testScheme(), prev, nil); err != nil {
		t.Fatal(err)
	}
	if err := encode(&want, loaded, testScheme(), nil, nil); err != nil {
		t.Fatal(err)
	}
	if d := linediff.Describe("reusing", got.String(), "encoding", want.String()); d != "" {
		t.Fatal("reading lines from the previous file wrote another file: ", d)
	}
	if prev.reused != len(loaded.Objects)-3 || prev.reusedEvents != len(loaded.Events)-1 {
		t.Errorf("reused %d object and %d event lines, want %d and %d", prev.reused, prev.reusedEvents, len(loaded.Objects)-3, len(loaded.Events)-1)
	}
}

// TestSaveEncodesWhatRestoreCompleted: an object whose line lacks a uid or
// resourceVersion gets them from Restore, so its line is not the object
// any more and is encoded, even though Load took what identifies it from
// that very line.
func TestSaveEncodesWhatRestoreCompleted(t *testing.T) {
	d := tempDir(t)
	savedInStoreOrder(t, d, bigSnapshot(3))
	lines := strings.Split(readState(t, d), "\n")
	first := slices.Index(lines, `"objects":[`) + 1
	for i, field := range []string{`"uid":"`, `"resourceVersion":"`} {
		l := lines[first+i]
		at := strings.Index(l, field)
		end := at + len(field) + strings.IndexByte(l[at+len(field):], '"') + 1
		lines[first+i] = l[:at] + l[end+1:] // the field and the comma after it
	}
	writeState(t, d, strings.Join(lines, "\n"))
	loaded, err := d.Load(testScheme())
	if err != nil {
		t.Fatal(err)
	}
	c := fakecluster.New(fakecluster.Options{Scheme: testScheme()})
	if err := c.RestoreOwned(loaded.Objects); err != nil {
		t.Fatal(err)
	}
	loaded.Objects = c.Objects()
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	sameAsFreshSave(t, d, loaded)
	if want := len(loaded.Objects) - 2; d.reusedLines != want {
		t.Errorf("%d lines copied, want %d (all but the two completed)", d.reusedLines, want)
	}
}

// TestSaveCopiesNoCarriageReturns: from a file whose lines end in "\r\n"
// (edited on Windows, still one element a line), the unchanged lines are
// copied one by one, without their "\r".
func TestSaveCopiesNoCarriageReturns(t *testing.T) {
	d := tempDir(t)
	snap := savedInStoreOrder(t, d, bigSnapshot(5))
	writeState(t, d, strings.ReplaceAll(readState(t, d), "\n", "\r\n"))
	loaded, err := d.Load(testScheme())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	sameAsFreshSave(t, d, snap)
	if d.reusedLines == 0 || d.copiedBytes == 0 {
		t.Errorf("reused %d lines and copied %d bytes; the file's lines should be copied", d.reusedLines, d.copiedBytes)
	}
}

func TestSaveReusesOnlyTheFileItLoaded(t *testing.T) {
	d := tempDir(t)
	loaded := savedInStoreOrder(t, d, bigSnapshot(5))
	// Another Dir on the same folder never loaded the file.
	other := &Dir{Path: d.Path}
	if err := other.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	if other.reusedLines != 0 {
		t.Errorf("a Dir that did not load the file copied %d lines from it", other.reusedLines)
	}
	// The file changed since d loaded it (another Save replaced it).
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	if d.reusedLines != 0 {
		t.Errorf("copied %d lines from a file replaced since it was loaded", d.reusedLines)
	}
	// What d saved itself it may copy from next time.
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	if d.reusedLines != len(loaded.Objects) {
		t.Errorf("copied %d lines of %d from the file d saved", d.reusedLines, len(loaded.Objects))
	}
}

// TestSaveReusesUnchangedEvents: the events loaded that start the timeline
// saved are copied from the file, those after it (and one that differs)
// are encoded, and the file is what a save that encodes all writes. Events
// of a file read as a whole document, or after a save, are not copied.
func TestSaveReusesUnchangedEvents(t *testing.T) {
	d := tempDir(t)
	loaded := savedInStoreOrder(t, d, bigSnapshot(20))
	n := len(loaded.Events)
	events := slices.Clone(loaded.Events)
	events[5].Message = "changed"
	events = append(events, Event{Time: epoch, Kind: "Installation", Namespace: "default", Name: "new", Type: EventCreated})
	loaded.Events = events
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	if want := n - 1; d.reusedEvents != want {
		t.Errorf("%d event lines copied, want %d", d.reusedEvents, want)
	}
	got := readState(t, d)
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	if d.reusedEvents != 0 {
		t.Errorf("a second save copied %d event lines; it keeps no events", d.reusedEvents)
	}
	fresh := tempDir(t) // a folder of its own: d's path is relative
	if err := fresh.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	if want := readState(t, fresh); got != want {
		t.Fatalf("a save that copied event lines differs from one that encoded all:\n%s\n---\n%s", got, want)
	}

	// The same content laid out as one document is read as a whole.
	whole := tempDir(t)
	snap := savedInStoreOrder(t, whole, bigSnapshot(3))
	writeState(t, whole, strings.ReplaceAll(readState(t, whole), ",\n", ", "))
	if _, err := whole.Load(testScheme()); err != nil {
		t.Fatal(err)
	}
	if err := whole.Save(snap, testScheme()); err != nil {
		t.Fatal(err)
	}
	if whole.reusedEvents != 0 || whole.reusedLines != 0 {
		t.Errorf("copied %d event and %d object lines from a file not in Save's layout", whole.reusedEvents, whole.reusedLines)
	}
}

// A timeline handed over in blocks (Events, then Recorded) saves the same
// bytes as the same timeline in one slice, whether Save encodes every event
// or copies the unchanged ones from the file it loaded; event lines are
// copied from Events and from the blocks alike.
func TestSaveWritesRecordedBlocksInOrder(t *testing.T) {
	d := tempDir(t)
	loaded := savedInStoreOrder(t, d, bigSnapshot(20))
	all := slices.Clone(loaded.Events)
	for i := range 30 {
		all = append(all, Event{Time: epoch, Kind: "Installation", Namespace: "default", Name: fmt.Sprintf("new-%d", i), Type: EventCreated})
	}
	// Split after the first loaded event, so that unchanged loaded events
	// sit in blocks too; blocks of 1, 0, 7 and the rest.
	head, rest := all[:1], all[1:]
	blocks := [][]Event{rest[:1], rest[1:1], rest[1:8], rest[8:]}
	split := *loaded
	split.Events, split.Recorded = head, blocks
	if err := d.Save(&split, testScheme()); err != nil {
		t.Fatal(err)
	}
	if want := len(loaded.Events); d.reusedEvents != want {
		t.Errorf("%d event lines copied, want %d", d.reusedEvents, want)
	}
	back, err := d.Load(testScheme())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Events, all) || back.Recorded != nil {
		t.Fatalf("loaded %d events and %d blocks, want the %d saved in one slice", len(back.Events), len(back.Recorded), len(all))
	}
	joined := *loaded
	joined.Events = all
	sameAsFreshSave(t, d, &joined)
}

// writeLines stops at the first element that does not encode, and at the
// first failed write, in any round, with the error of either, while the
// round before it is still being written or the one after encoded.
func TestWriteLinesStopsAtErrors(t *testing.T) {
	n := 3*roundSize + 5
	bad := 2*roundSize + 3
	elem := func(i int) (any, error) {
		if i == bad {
			return nil, errors.New("cannot encode")
		}
		return i, nil
	}
	name := func(i int) string { return fmt.Sprintf("element %d", i) }
	var out bytes.Buffer
	err := writeLines(&out, n, elem, name, nil, nil, nil)
	if err == nil || err.Error() != fmt.Sprintf("element %d: cannot encode", bad) {
		t.Fatalf("writeLines: %v, want the error of element %d", err, bad)
	}

	f, err := os.CreateTemp(t.TempDir(), "lines")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	failing := &faultyTemp{File: f, fail: "write", failAfter: 3000}
	err = writeLines(failing, n, func(i int) (any, error) { return i, nil }, name, nil, nil, nil)
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("writeLines to a writer that fails: %v", err)
	}
	if failing.failed > 1 {
		t.Errorf("writeLines wrote %d more times after a write failed", failing.failed-1)
	}

	out.Reset()
	if err := writeLines(&out, n, func(i int) (any, error) { return i, nil }, name, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := range n {
		fmt.Fprintf(&want, "%d", i)
		if i < n-1 {
			want.WriteString(",\n")
		} else {
			want.WriteString("\n")
		}
	}
	if d := linediff.Describe("written", out.String(), "expected", want.String()); d != "" {
		t.Fatal(d)
	}
}
