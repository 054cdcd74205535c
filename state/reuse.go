package state

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/fakecluster"
)

// previousFile reads, in order, the event and object lines of the state
// file a Save replaces, so that Save writes the line of an object that has
// not changed since (same kind, namespace, name, uid and resourceVersion:
// every write gives an object a new resourceVersion) as it was, instead of
// encoding the object again. A line Save wrote decodes to its object and
// encodes back to itself (TestListStoredIsList, and the check of every
// script's state), so the file is the same either way; encoding was most
// of the time of saving 100,000 objects of which a run changed a few.
//
// Events are copied the same way: the timeline only grows, so the events
// the file held, decoded one a line when it was loaded, are the start of
// the timeline saved; an event equal to the one loaded from line i of the
// events section is written as that line.
type previousFile struct {
	f      *os.File
	r      *bufio.Reader
	heads  headerReader
	line   []byte // the current object line, without its comma
	head   ObjectHeader
	ok     bool // line is an object line whose header was read
	long   []byte
	reused int

	// copyFrom is a second handle on the file, from which Save copies
	// ranges of lines (see fileWriter). pos is the offset of the next
	// line readLine reads; lineAt is where the last line read starts, and
	// comma says it ended with exactly ",\n". at and atComma are those of
	// line.
	copyFrom *os.File
	pos      int64
	lineAt   int64
	comma    bool
	at       int64
	atComma  bool

	// inEvents is true while the lines read are those of the events
	// section, event is the number of the next one.
	inEvents bool
	event    int
	// reusedEvents is how many event lines Save copied.
	reusedEvents int
}

// openPrevious opens the state file at path and reads up to its events,
// or returns nil when there is none, when it is not the file loaded (the
// file Load read one element a line, or Save wrote, unchanged since: each
// of its element lines holds one value and nothing else), or when it is not
// in Save's layout.
func openPrevious(path string, loaded os.FileInfo) *previousFile {
	if loaded == nil {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	if info, err := f.Stat(); err != nil || !os.SameFile(info, loaded) || info.Size() != loaded.Size() || !info.ModTime().Equal(loaded.ModTime()) {
		_ = f.Close()
		return nil
	}
	p := &previousFile{f: f, r: bufio.NewReaderSize(f, 1<<20)}
	if c, err := os.Open(path); err == nil {
		if info, err := c.Stat(); err == nil && os.SameFile(info, loaded) {
			p.copyFrom = c
		} else {
			_ = c.Close()
		}
	}
	for {
		line, err := p.readLine()
		if err != nil {
			p.close()
			return nil
		}
		if string(line) == `"events":[` {
			p.inEvents = true
			return p
		}
	}
}

// toObjects reads on to the start of the objects section and the first
// object line, unless it is there already; ok stays false if there is no
// such section.
func (p *previousFile) toObjects() {
	if !p.inEvents {
		return
	}
	p.inEvents = false
	for {
		line, err := p.readLine()
		if err != nil {
			return
		}
		if string(line) == `"objects":[` {
			p.next()
			return
		}
	}
}

// reuseEvent returns, for event i of the timeline to be saved, the line of
// the previous file's events section that holds it, appended to arena, and
// the arena; no text when it must be encoded. loaded are the events decoded
// from that section, one a line. Events must come in order.
func (p *previousFile) reuseEvent(i int, e *Event, loaded []Event, arena []byte) (reusedLine, []byte) {
	if !p.inEvents || i >= len(loaded) || i != p.event {
		return reusedLine{}, arena
	}
	line, err := p.readLine()
	if err != nil {
		p.inEvents = false
		return reusedLine{}, arena
	}
	p.event++
	line = bytes.TrimSuffix(line, []byte(","))
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		// Not an event line: the section ended early, so the file is not
		// the one loaded. Nothing more is copied from it.
		p.inEvents = false
		return reusedLine{}, arena
	}
	if *e != loaded[i] {
		return reusedLine{}, arena
	}
	start := len(arena)
	arena = append(arena, line...)
	p.reusedEvents++
	return reusedLine{text: arena[start:len(arena):len(arena)], at: p.lineAt, comma: p.comma}, arena
}

// reusedLine is a line Save copies from the file it replaces: its text,
// where the text starts in that file, and whether the file has exactly
// ",\n" after it.
type reusedLine struct {
	text  []byte
	at    int64
	comma bool
}

// readLine returns the next line without its line end, valid until the
// next call.
func (p *previousFile) readLine() ([]byte, error) {
	line, err := p.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		p.long = append(p.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = p.r.ReadSlice('\n')
			p.long = append(p.long, line...)
		}
		line = p.long
	}
	if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
		return nil, err
	}
	p.lineAt, p.pos = p.pos, p.pos+int64(len(line))
	p.comma = bytes.HasSuffix(line, []byte(",\n")) && !bytes.HasSuffix(line, []byte(",\r\n"))
	return bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), nil
}

// next moves to the next object line; ok is false at the section's end or
// at a line that is not as Save writes objects.
func (p *previousFile) next() {
	p.ok = false
	line, err := p.readLine()
	if err != nil {
		return
	}
	line = bytes.TrimSuffix(line, []byte(","))
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return
	}
	p.head = ObjectHeader{}
	if !p.heads.scanHeader(line, &p.head) || !p.heads.complete(&p.head) {
		return
	}
	p.line, p.ok = line, true
	p.at, p.atComma = p.lineAt, p.comma
}

// reuse returns, for obj (of kind gk) to be saved, the line it had in the
// previous file if it has not changed since, appended to arena, and the
// arena; no text when it must be encoded. Objects must come in the API
// server's order, as they are saved.
func (p *previousFile) reuse(gk schema.GroupKind, obj fakecluster.Object, arena []byte) (reusedLine, []byte) {
	for p.ok {
		c := fakecluster.CompareKeys(schema.GroupKind{Group: groupOf(p.head.APIVersion), Kind: p.head.Kind},
			p.head.Namespace, p.head.Name, gk, obj.GetNamespace(), obj.GetName())
		if c > 0 {
			return reusedLine{}, arena // a new object
		}
		same := c == 0 && p.head.UID == obj.GetUID() && p.head.resourceVersion == obj.GetResourceVersion()
		if same {
			start := len(arena)
			arena = append(arena, p.line...)
			r := reusedLine{text: arena[start:len(arena):len(arena)], at: p.at, comma: p.atComma}
			p.reused++
			p.next()
			return r, arena
		}
		p.next()
		if c == 0 {
			return reusedLine{}, arena // changed
		}
	}
	return reusedLine{}, arena
}

// source is the file Save may copy ranges of lines from, or nil.
func (p *previousFile) source() *os.File {
	if p == nil {
		return nil
	}
	return p.copyFrom
}

// close closes the file, if any.
func (p *previousFile) close() {
	if p != nil {
		_ = p.f.Close()
		if p.copyFrom != nil {
			_ = p.copyFrom.Close()
		}
	}
}

// objectReuser returns writeLines' reuse for the objects of snap: nil when
// there is no previous file.
func (p *previousFile) objectReuser(scheme *runtime.Scheme, objs []fakecluster.Object) func(i int, arena []byte) (reusedLine, []byte) {
	if p == nil {
		return nil
	}
	p.toObjects()
	return func(i int, arena []byte) (reusedLine, []byte) {
		gvks, _, err := scheme.ObjectKinds(objs[i])
		if err != nil {
			return reusedLine{}, arena // encoding it reports the error
		}
		return p.reuse(gvks[0].GroupKind(), objs[i], arena)
	}
}

// eventReuser returns writeLines' reuse for the events of snap, given the
// events loaded from the previous file: nil when there is no previous file
// or nothing was loaded from its lines.
func (p *previousFile) eventReuser(events eventIndex, loaded []Event) func(i int, arena []byte) (reusedLine, []byte) {
	if p == nil || len(loaded) == 0 {
		return nil
	}
	return func(i int, arena []byte) (reusedLine, []byte) {
		return p.reuseEvent(i, events.at(i), loaded, arena)
	}
}
