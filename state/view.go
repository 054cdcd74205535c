package state

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/parallel"
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
	// known caches, by apiVersion and kind, whether the scheme knows a kind.
	known map[[2]string]bool
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
	var lines []line
	if withObjects {
		data, lines, err = readLines(path)
	} else {
		sections = 2 // timers and events, which come before the objects
		var complete bool
		data, complete, err = readUpTo(path, []byte("\n\"objects\":["))
		if err == nil && !complete {
			return nil, false, nil
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("state %s: %w", show(d.dir()), ErrNoState)
	}
	if err != nil {
		return nil, false, fmt.Errorf("read state: %w", err)
	}
	if lines == nil {
		lines = splitLines(data)
	}
	l, ok := splitSections(lines, sections)
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
	err := parallel.ForChunks(len(objs), minChunk, func(_, lo, hi int) error {
		var r headerReader
		for i := lo; i < hi; i++ {
			if !r.readHeader(objs[i].text, &heads[i]) {
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
// starts with marker (a newline and the line's start), or the whole file
// when it has no such line. complete is false, and nothing is read, when the
// file does not end as Save ends a state file: a file cut short is left to
// Load, which reports it.
func readUpTo(path string, marker []byte) (data []byte, complete bool, err error) {
	f, err := openFile(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !endsAsSaved(f, info.Size()) {
		return nil, false, nil
	}
	data = make([]byte, 0, info.Size()+1) // only the pages read are touched
	for {
		if cap(data)-len(data) < 1<<20 {
			data = slices.Grow(data, 1<<20)
		}
		n, err := f.Read(data[len(data) : len(data)+1<<20])
		from := max(0, len(data)-len(marker))
		data = data[:len(data)+n]
		if at := bytes.Index(data[from:], marker); at >= 0 {
			if end := bytes.IndexByte(data[from+at+1:], '\n'); end >= 0 {
				return data[:from+at+1+end+1], true, nil
			}
		}
		if errors.Is(err, io.EOF) {
			return data, true, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
}

// endsAsSaved reports whether the file f of size bytes ends as Save ends a
// state file: with "]}" and a newline.
func endsAsSaved(f *os.File, size int64) bool {
	tail := make([]byte, min(size, 8))
	if _, err := f.ReadAt(tail, size-int64(len(tail))); err != nil {
		return false
	}
	return bytes.HasSuffix(bytes.TrimRight(tail, "\r\n"), []byte("]}"))
}

// errNeedsLoad stops the header scan of a file that Load must read.
var errNeedsLoad = errors.New("state file needs a full load")

// Headers returns the headers of the stored objects, in the order of Load,
// or nil when the View was opened without objects. The caller must not
// change them.
func (v *View) Headers() []ObjectHeader { return v.headers }

// StoredObject is an object as the state file stores it: what identifies
// it, and its JSON as Save wrote it: compact, "kind" and "apiVersion"
// first, then the object's fields as encoding/json writes them.
type StoredObject struct {
	Kind, Namespace, Name string
	JSON                  []byte
}

// Line returns the JSON of object i of Headers as the file stores it (see
// Save), and whether the scheme knows its kind, as decoding it would
// require. The caller must not change the JSON.
func (v *View) Line(i int) ([]byte, bool) {
	h := v.headers[i]
	key := [2]string{h.APIVersion, h.Kind}
	known, seen := v.known[key]
	if !seen {
		gv, err := schema.ParseGroupVersion(h.APIVersion)
		known = err == nil && v.scheme.Recognizes(gv.WithKind(h.Kind))
		if v.known == nil {
			v.known = map[[2]string]bool{}
		}
		v.known[key] = known
	}
	return v.layout.sections[2][i].text, known
}

// Stored returns the objects whose headers keep accepts (all when keep is
// nil) as the file stores them, in the order of Headers. ok is false when
// one of them is of a kind the scheme does not know: it must be decoded,
// which reports that.
func (v *View) Stored(keep func(ObjectHeader) bool) (objs []StoredObject, ok bool) {
	if keep == nil {
		objs = make([]StoredObject, 0, len(v.headers))
	}
	for i, h := range v.headers {
		if keep != nil && !keep(h) {
			continue
		}
		line, known := v.Line(i)
		if !known {
			return nil, false
		}
		objs = append(objs, StoredObject{Kind: h.Kind, Namespace: h.Namespace, Name: h.Name, JSON: line})
	}
	return objs, true
}

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
