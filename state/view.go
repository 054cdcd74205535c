package state

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// View is a state file opened for looking at, not for running: the reading
// commands (get, tree, events, describe) decode only the objects and the
// section they show, instead of loading the whole simulation. Its objects
// are those Load returns, in the same order, and as Restore would keep them.
//
// A View exists only for files in Save's layout whose objects can be told
// apart by their first bytes; for any other file (edited by hand, objects
// out of order or without uid or resourceVersion) OpenView reports false
// and the caller loads the file as a whole, which also reports what is
// wrong with it.
type View struct {
	path    string
	scheme  *runtime.Scheme
	layout  *layout
	headers []ObjectHeader
}

// ObjectHeader is what identifies a stored object, read from the start of
// its line without decoding the rest.
type ObjectHeader struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	UID        types.UID
	// Owners are the UIDs of the object's owner references, in order.
	Owners []types.UID
	// resourceVersion is kept only to tell whether Restore would fill it in.
	resourceVersion string
}

// OpenView reads <folder>/state.json for a View, and the headers of its
// objects when withObjects is true (without them, only Events may be
// called). Its error wraps ErrNoState where there is no state file. ok is
// false when the file needs Load.
func (d *Dir) OpenView(scheme *runtime.Scheme, withObjects bool) (v *View, ok bool, err error) {
	path := d.file(stateFileName)
	sections := len(sectionNames)
	var data []byte
	if withObjects {
		data, err = os.ReadFile(path)
	} else {
		sections = 2 // timers and events, which come before the objects
		data, err = readUpTo(path, []byte("\n\"objects\":["))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("state %s: %w", show(d.dir()), ErrNoState)
	}
	if err != nil {
		return nil, false, fmt.Errorf("read state: %w", err)
	}
	l, ok := splitSections(splitLines(data), sections)
	if !ok {
		return nil, false, nil
	}
	if _, err := decodeHeader(l.header); err != nil {
		return nil, false, nil
	}
	v = &View{path: path, scheme: scheme, layout: l}
	if withObjects && !v.readHeaders() {
		return nil, false, nil
	}
	return v, true, nil
}

// readHeaders reads the header of every object line, on all cores, and
// reports whether they are all as Save writes them, in the API server's
// order.
func (v *View) readHeaders() bool {
	objs := v.layout.sections[2]
	heads := make([]ObjectHeader, len(objs))
	err := forChunks(len(objs), func(_, lo, hi int) error {
		var rd bytes.Reader
		var dec jsontext.Decoder
		for i := lo; i < hi; i++ {
			rd.Reset(objs[i].text)
			if !readHeader(&dec, &rd, &heads[i]) {
				return errNeedsLoad
			}
		}
		return nil
	})
	if err != nil || !inStoreOrder(heads) {
		return false
	}
	v.headers = heads
	return true
}

// readUpTo reads the file at path up to the end of the first line that
// starts with marker (a newline and the line's start), or the whole file.
func readUpTo(path string, marker []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var data []byte
	if info, err := f.Stat(); err == nil {
		data = make([]byte, 0, info.Size()+1) // only the pages read are touched
	}
	for {
		if cap(data)-len(data) < 1<<20 {
			data = slices.Grow(data, 1<<20)
		}
		n, err := f.Read(data[len(data) : len(data)+1<<20])
		from := max(0, len(data)-len(marker))
		data = data[:len(data)+n]
		if at := bytes.Index(data[from:], marker); at >= 0 {
			if end := bytes.IndexByte(data[from+at+1:], '\n'); end >= 0 {
				return data[:from+at+1+end+1], nil
			}
		}
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// errNeedsLoad stops the header scan of a file that Load must read.
var errNeedsLoad = errors.New("state file needs a full load")

// Headers returns the headers of the stored objects, in the order of Load,
// or nil when the View was opened without objects. The caller must not
// change them.
func (v *View) Headers() []ObjectHeader { return v.headers }

// Objects decodes the objects whose indexes into Headers are given, in
// that order. An object that does not decode is an error naming its line.
func (v *View) Objects(indexes []int) ([]fakecluster.Object, error) {
	lines := make([]line, len(indexes))
	for i, at := range indexes {
		lines[i] = v.layout.sections[2][at]
	}
	objs, err := decodeLines(lines, func(b []byte, into *fakecluster.Object) (err error) {
		*into, err = decodeObject(v.scheme, b)
		return err
	})
	return objs, v.wrap(err)
}

// AllObjects decodes every stored object, in the order of Load.
func (v *View) AllObjects() ([]fakecluster.Object, error) {
	all := make([]int, len(v.headers))
	for i := range all {
		all[i] = i
	}
	return v.Objects(all)
}

// Events decodes the timeline, oldest first.
func (v *View) Events() ([]Event, error) {
	events, err := decodeEvents(v.layout.sections[1])
	return events, v.wrap(err)
}

// wrap makes err, if any, an error about the state file, as Load's are.
func (v *View) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("read state %s: %w (%s)", show(v.path), err, resetHint)
}

// readHeader reads kind, apiVersion and metadata from the start of an
// object line into h, and stops there. It reports false when data does
// not start as Save writes objects or lacks what Restore would fill in.
func readHeader(dec *jsontext.Decoder, data io.Reader, h *ObjectHeader) bool {
	dec.Reset(data, jsontext.AllowDuplicateNames(true))
	if !readDelim(dec, '{') {
		return false
	}
	var haveMeta bool
	for h.Kind == "" || h.APIVersion == "" || !haveMeta {
		name, ok := readString(dec)
		if !ok {
			return false
		}
		switch name {
		case "kind":
			h.Kind, ok = readString(dec)
		case "apiVersion":
			h.APIVersion, ok = readString(dec)
		case "metadata":
			ok, haveMeta = readMetadata(dec, h), true
		default:
			ok = dec.SkipValue() == nil
		}
		if !ok {
			return false
		}
	}
	namespaced := h.Namespace != "" ||
		fakecluster.ClusterScoped(schema.GroupKind{Group: groupOf(h.APIVersion), Kind: h.Kind})
	return h.Name != "" && namespaced && h.UID != "" && h.resourceVersion != ""
}

// readMetadata reads the object's metadata, a JSON object, into h.
func readMetadata(dec *jsontext.Decoder, h *ObjectHeader) bool {
	if !readDelim(dec, '{') {
		return false
	}
	for dec.PeekKind() == '"' {
		name, _ := readString(dec)
		var ok bool
		switch name {
		case "name":
			h.Name, ok = readString(dec)
		case "namespace":
			h.Namespace, ok = readString(dec)
		case "uid":
			var uid string
			uid, ok = readString(dec)
			h.UID = types.UID(uid)
		case "resourceVersion":
			h.resourceVersion, ok = readString(dec)
		case "ownerReferences":
			ok = readOwners(dec, h)
		default:
			ok = dec.SkipValue() == nil
		}
		if !ok {
			return false
		}
	}
	return readDelim(dec, '}')
}

// readOwners reads the UIDs of an ownerReferences array into h.
func readOwners(dec *jsontext.Decoder, h *ObjectHeader) bool {
	if dec.PeekKind() == 'n' {
		return dec.SkipValue() == nil
	}
	if !readDelim(dec, '[') {
		return false
	}
	for dec.PeekKind() == '{' {
		readDelim(dec, '{')
		for dec.PeekKind() == '"' {
			name, _ := readString(dec)
			if name != "uid" {
				if dec.SkipValue() != nil {
					return false
				}
				continue
			}
			uid, ok := readString(dec)
			if !ok {
				return false
			}
			h.Owners = append(h.Owners, types.UID(uid))
		}
		if !readDelim(dec, '}') {
			return false
		}
	}
	return readDelim(dec, ']')
}

// readDelim reads the token delim ({, }, [ or ]).
func readDelim(dec *jsontext.Decoder, delim jsontext.Kind) bool {
	tok, err := dec.ReadToken()
	return err == nil && tok.Kind() == delim
}

// readString reads a string token.
func readString(dec *jsontext.Decoder) (string, bool) {
	tok, err := dec.ReadToken()
	if err != nil || tok.Kind() != '"' {
		return "", false
	}
	return tok.String(), true
}

// inStoreOrder reports whether heads are strictly in the order in which
// the API server lists objects (kind, group, namespace, name), as Save
// writes them: then no two objects collide and Load keeps the file's order.
func inStoreOrder(heads []ObjectHeader) bool {
	for i := 1; i < len(heads); i++ {
		if compareHeaders(heads[i-1], heads[i]) >= 0 {
			return false
		}
	}
	return true
}

// compareHeaders orders headers as fakecluster lists objects.
func compareHeaders(a, b ObjectHeader) int {
	return fakecluster.CompareKeys(
		schema.GroupKind{Group: groupOf(a.APIVersion), Kind: a.Kind}, a.Namespace, a.Name,
		schema.GroupKind{Group: groupOf(b.APIVersion), Kind: b.Kind}, b.Namespace, b.Name)
}

// groupOf is the group of apiVersion ("" for the core group).
func groupOf(apiVersion string) string {
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return ""
	}
	return group
}

// decodeEvents decodes the timeline's lines on all cores. Lines in the form
// Save writes are read token by token, with a string equal to the one at
// the same place of the line before (a kind, a namespace, often a name)
// shared; any other line is decoded as decodeEvent decodes it, so the
// result is the same either way.
func decodeEvents(lines []line) ([]Event, error) {
	return decodeLinesWith(lines, func() func([]byte, *Event) error {
		var r eventReader
		return func(data []byte, e *Event) error {
			if r.read(data, e) {
				return nil
			}
			*e = Event{}
			return decodeEvent(data, e)
		}
	})
}

// eventReader reads event lines with one decoder, keeping the strings of
// the line before.
type eventReader struct {
	rd   bytes.Reader
	dec  jsontext.Decoder
	last [16]string
	// lastTime is the time last parsed, from lastTimeText, if timeOK.
	lastTime     time.Time
	lastTimeText string
	timeOK       bool
}

// read decodes the event line data into e, and reports false when the line
// holds anything else than the event's fields as plain strings.
func (r *eventReader) read(data []byte, e *Event) bool {
	r.rd.Reset(data)
	r.dec.Reset(&r.rd, jsontext.AllowDuplicateNames(true))
	if !readDelim(&r.dec, '{') {
		return false
	}
	for pos := 0; r.dec.PeekKind() == '"'; pos += 2 {
		name, ok := r.str(pos)
		if !ok {
			return false
		}
		value, ok := r.str(pos + 1)
		if !ok {
			return false
		}
		switch name {
		case "time":
			if !r.timeOK || value != r.lastTimeText {
				t, err := time.Parse(time.RFC3339Nano, value)
				if err != nil {
					return false
				}
				r.lastTime, r.lastTimeText, r.timeOK = t, value, true
			}
			e.Time = r.lastTime
		case "kind":
			e.Kind = value
		case "namespace":
			e.Namespace = value
		case "name":
			e.Name = value
		case "type":
			e.Type = EventType(value)
		case "phase":
			e.Phase = value
		case "jobID":
			e.JobID = value
		case "message":
			e.Message = value
		default:
			return false
		}
	}
	return readDelim(&r.dec, '}') && r.dec.PeekKind() == 0
}

// str reads a string without escapes, the pos-th of the line, shared with
// the string at pos of the line before when they are equal.
func (r *eventReader) str(pos int) (string, bool) {
	raw, err := r.dec.ReadValue()
	if err != nil || len(raw) < 2 || raw[0] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
		return "", false
	}
	b := raw[1 : len(raw)-1]
	if pos >= len(r.last) {
		return string(b), true
	}
	if r.last[pos] != string(b) {
		r.last[pos] = string(b)
	}
	return r.last[pos], true
}
