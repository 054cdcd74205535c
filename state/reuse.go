package state

import (
	"bufio"
	"bytes"
	"errors"
	"os"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/fakecluster"
)

// previousFile is the state file a Save replaces, when it is the very file
// its Dir loaded one element a line, or saved, unchanged since. Save writes
// the line of an object that has not changed since (same kind, namespace,
// name, uid and resourceVersion: every write gives an object a new
// resourceVersion) as it was, instead of encoding the object again. A line
// Save wrote decodes to its object and encodes back to itself
// (TestListStoredIsList, and the check of every script's state), so the
// file is the same either way; encoding was most of the time of saving
// 100,000 objects of which a run changed a few.
//
// Events are copied the same way: the timeline only grows, so the events
// the file held, decoded one a line when it was loaded, are the start of
// the timeline saved; an event equal to the one loaded from line i of the
// events section is written as that line.
//
// Where the lines are comes from what Load read (fileLines), so Save does
// not read the file again: it copies the lines from it (see fileWriter).
type previousFile struct {
	// f is the file, opened again and checked to be the one loaded.
	f     *os.File
	lines *fileLines
	// next is the first object line reuse has not passed.
	next int
	// reused and reusedEvents count the object and event lines reused.
	reused, reusedEvents int
}

// fileLines are the element lines of a state file in Save's layout, as
// Load (or a scan after Save) found them: where each one is, and what
// identifies the objects and events on them.
type fileLines struct {
	// info is the file the lines are from.
	info os.FileInfo
	// unscanned says the lines are not known yet (the file Save wrote
	// last): they are found from the objects' headers when needed.
	unscanned bool
	// objects are the object lines, in file order.
	objects []objectLine
	// events are the event lines, in file order, and eventValues the
	// events decoded from them; both are nil when the events are not known.
	events      []fileLine
	eventValues []Event
}

// fileLine is where an element of a section is in the state file: its
// offset and length, without the comma after it. Two elements of a section
// two bytes apart have exactly ",\n" between them (splitSection requires a
// comma after every element but the last), so a run of such lines is
// copied in one range.
type fileLine struct {
	at int64
	n  int
}

// objectLine is the line of an object in the state file, with the header
// of the object on it (Owners are not needed).
type objectLine struct {
	fileLine
	ObjectHeader
}

// elementLines returns where the elements of a section (lines whose text
// is part of data, commas stripped by splitSection) are in data, and false
// when one of them is not part of data.
func elementLines(data []byte, elems []line) ([]fileLine, bool) {
	out := make([]fileLine, len(elems))
	for i, l := range elems {
		at := cap(data) - cap(l.text)
		if len(l.text) == 0 || at < 0 || at+len(l.text) > len(data) || &data[at] != &l.text[0] {
			return nil, false
		}
		out[i] = fileLine{at: int64(at), n: len(l.text)}
	}
	return out, true
}

// objectLines returns the object lines of a layout split from data, each
// with the header of the object on it (head(i) for element i), or nil
// when their places in data are not known.
func objectLines(data []byte, elems []line, head func(i int) ObjectHeader) []objectLine {
	places, ok := elementLines(data, elems)
	if !ok {
		return nil
	}
	out := make([]objectLine, len(elems))
	for i := range elems {
		out[i] = objectLine{fileLine: places[i], ObjectHeader: head(i)}
	}
	return out
}

// headerOf returns the header of a decoded object, without its owners.
func headerOf(obj fakecluster.Object) ObjectHeader {
	h := ObjectHeader{Namespace: obj.GetNamespace(), Name: obj.GetName(), UID: obj.GetUID(), resourceVersion: obj.GetResourceVersion()}
	if tm, ok := obj.GetObjectKind().(*metav1.TypeMeta); ok {
		h.APIVersion, h.Kind = tm.APIVersion, tm.Kind // the strings decoded, not new ones
	} else {
		gvk := obj.GetObjectKind().GroupVersionKind()
		h.APIVersion, h.Kind = gvk.GroupVersion().String(), gvk.Kind
	}
	return h
}

// openPrevious opens the state file at path, or returns nil when there is
// none, or when it is not the file lines are from (replaced or changed
// since), or lines is nil.
func openPrevious(path string, lines *fileLines) *previousFile {
	if lines == nil || lines.info == nil {
		return nil
	}
	f, err := openFile(path)
	if err != nil {
		return nil
	}
	info, err := f.Stat()
	if err != nil || !os.SameFile(info, lines.info) || info.Size() != lines.info.Size() || !info.ModTime().Equal(lines.info.ModTime()) {
		_ = f.Close()
		return nil
	}
	if lines.unscanned {
		if lines = scanLines(f, info); lines == nil {
			_ = f.Close()
			return nil
		}
	}
	return &previousFile{f: f, lines: lines}
}

// scanLines reads the object lines of the state file f, open at its start,
// from their headers, as a View does: nil when the file is not as Save
// writes it.
func scanLines(f *os.File, info os.FileInfo) *fileLines {
	data, lines, err := readOpenLines(f)
	if err != nil || int64(len(data)) != info.Size() {
		return nil
	}
	l, ok := splitSections(lines, len(sectionNames))
	if !ok {
		return nil
	}
	v := &View{layout: l}
	if !v.readHeaders() {
		return nil
	}
	objects := objectLines(data, l.sections[2], func(i int) ObjectHeader { return v.headers[i] })
	if objects == nil {
		return nil
	}
	return &fileLines{info: info, objects: objects}
}

// reusedLine is a line Save copies from the file it replaces (when ok):
// where it is there, and its text when the writer cannot copy ranges.
type reusedLine struct {
	fileLine
	ok   bool
	text []byte
}

// reuseEvent returns, for event i of the timeline to be saved, the line of
// the previous file's events section that holds it, if any.
func (p *previousFile) reuseEvent(i int, e *Event) reusedLine {
	if i >= len(p.lines.events) || i >= len(p.lines.eventValues) || *e != p.lines.eventValues[i] {
		return reusedLine{}
	}
	p.reusedEvents++
	return reusedLine{fileLine: p.lines.events[i], ok: true}
}

// reuse returns, for obj (of kind gk) to be saved, the line it had in the
// previous file if it has not changed since. Objects must come in the API
// server's order, as they are saved.
func (p *previousFile) reuse(gk schema.GroupKind, obj fakecluster.Object) reusedLine {
	objs := p.lines.objects
	for ; p.next < len(objs); p.next++ {
		l := &objs[p.next]
		c := fakecluster.CompareKeys(schema.GroupKind{Group: groupOf(l.APIVersion), Kind: l.Kind}, l.Namespace, l.Name,
			gk, obj.GetNamespace(), obj.GetName())
		if c > 0 {
			return reusedLine{} // a new object
		}
		if c < 0 {
			continue // an object removed since
		}
		p.next++
		if l.UID == "" || l.resourceVersion == "" || l.UID != obj.GetUID() || l.resourceVersion != obj.GetResourceVersion() {
			return reusedLine{} // changed
		}
		p.reused++
		return reusedLine{fileLine: l.fileLine, ok: true}
	}
	return reusedLine{}
}

// text appends the text of l, a line of the previous file, to arena.
func (p *previousFile) text(l fileLine, arena []byte) ([]byte, []byte, error) {
	start := len(arena)
	arena = append(arena, make([]byte, l.n)...)
	if _, err := p.f.ReadAt(arena[start:], l.at); err != nil {
		return nil, arena[:start], err
	}
	return arena[start:len(arena):len(arena)], arena, nil
}

// source is the file Save copies ranges of lines from, or nil.
func (p *previousFile) source() *os.File {
	if p == nil {
		return nil
	}
	return p.f
}

// holds reports whether the file p is holds snap byte for byte: whether
// encoding snap gives its very bytes. Encoding it into a comparer writes
// nothing: the lines of objects and events reused where they are in the
// file are the same bytes by their places, and the rest (the header, the
// timers, lines that changed) is compared with what the file has there. It
// is tried only when the file has as many objects and events as snap.
// When it does not hold snap, p is left as it was, ready to be written
// from; when it does, p counts the lines reused, size is the file's size
// and spans (see encode) say where its objects are.
func (p *previousFile) holds(snap *Snapshot, scheme *runtime.Scheme, spans []lineSpan) (size int64, ok bool) {
	if p == nil || len(snap.Objects) != len(p.lines.objects) || snap.eventIndex().n != len(p.lines.events) {
		return 0, false
	}
	c := &comparer{f: p.f, size: p.lines.info.Size()} // openPrevious checked it is the file's
	w := &fileWriter{Writer: bufio.NewWriterSize(c, 64<<10), f: c}
	if encode(w, snap, scheme, p, spans) != nil || w.Flush() != nil || c.at != c.size {
		p.next, p.reused, p.reusedEvents = 0, 0, 0 // another pass over the objects (see reuse)
		return 0, false
	}
	return c.size, true
}

// errDiffers stops a comparer at the first byte that differs.
var errDiffers = errors.New("differs from the file")

// comparer is a writer that compares what is written to it with the file
// f, from its start, instead of writing anything.
type comparer struct {
	f        *os.File
	at, size int64 // the next byte of f to compare; the size of f
	old      []byte
}

// Write compares b with the next bytes of the file.
func (c *comparer) Write(b []byte) (int, error) {
	if c.at+int64(len(b)) > c.size {
		return 0, errDiffers
	}
	if cap(c.old) < len(b) {
		c.old = make([]byte, len(b))
	}
	old := c.old[:len(b)]
	if _, err := c.f.ReadAt(old, c.at); err != nil || !bytes.Equal(old, b) {
		return 0, errDiffers
	}
	c.at += int64(len(b))
	return len(b), nil
}

// copyRange passes a range of the file itself copied to where it is,
// which is the same bytes.
func (c *comparer) copyRange(src *os.File, off, n int64) (int64, error) {
	if src != c.f || off != c.at || off+n > c.size {
		return 0, errDiffers
	}
	c.at += n
	return n, nil
}

// close closes the file, if any.
func (p *previousFile) close() {
	if p != nil {
		_ = p.f.Close()
	}
}

// objectReuser returns writeLines' reuse for the objects of snap: nil when
// there is no previous file.
func (p *previousFile) objectReuser(scheme *runtime.Scheme, objs []fakecluster.Object) func(i int) reusedLine {
	if p == nil || len(p.lines.objects) == 0 {
		return nil
	}
	return func(i int) reusedLine {
		gvks, _, err := scheme.ObjectKinds(objs[i])
		if err != nil {
			return reusedLine{} // encoding it reports the error
		}
		return p.reuse(gvks[0].GroupKind(), objs[i])
	}
}

// eventReuser returns writeLines' reuse for the events of snap: nil when
// there is no previous file or its events are not known.
func (p *previousFile) eventReuser(events eventIndex) func(i int) reusedLine {
	if p == nil || len(p.lines.events) == 0 {
		return nil
	}
	return func(i int) reusedLine { return p.reuseEvent(i, events.at(i)) }
}
