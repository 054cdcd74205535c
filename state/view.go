package state

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
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

// OpenView reads <folder>/state.json for a View. Its error wraps ErrNoState
// where there is no state file. ok is false when the file needs Load.
func (d *Dir) OpenView(scheme *runtime.Scheme) (v *View, ok bool, err error) {
	path := d.file(stateFileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("state %s: %w", show(d.dir()), ErrNoState)
	}
	if err != nil {
		return nil, false, fmt.Errorf("read state: %w", err)
	}
	l, ok := splitLayout(data)
	if !ok {
		return nil, false, nil
	}
	if _, err := decodeHeader(l.header); err != nil {
		return nil, false, nil
	}
	objs := l.sections[2]
	heads := make([]ObjectHeader, len(objs))
	err = forChunks(len(objs), func(_, lo, hi int) error {
		var dec jsontext.Decoder
		for i := lo; i < hi; i++ {
			if !readHeader(&dec, objs[i].text, &heads[i]) {
				return errNeedsLoad
			}
		}
		return nil
	})
	if err != nil || !inStoreOrder(heads) {
		return nil, false, nil
	}
	return &View{path: path, scheme: scheme, layout: l, headers: heads}, true, nil
}

// errNeedsLoad stops the header scan of a file that Load must read.
var errNeedsLoad = errors.New("state file needs a full load")

// Headers returns the headers of the stored objects, in the order of Load.
// The caller must not change them.
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
	events, err := decodeLines(v.layout.sections[1], decodeEvent)
	return events, v.wrap(err)
}

// wrap makes err, if any, an error about the state file, as Load's are.
func (v *View) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("read state %s: %w (%s)", show(v.path), err, resetHint)
}

// readHeader reads kind, apiVersion and metadata from the start of the
// object line data into h, and stops there. It reports false when data does
// not start as Save writes objects or lacks what Restore would fill in.
func readHeader(dec *jsontext.Decoder, data []byte, h *ObjectHeader) bool {
	dec.Reset(bytes.NewReader(data))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	var haveMeta bool
	for h.Kind == "" || h.APIVersion == "" || !haveMeta {
		tok, err := dec.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return false
		}
		switch name := tok.String(); name {
		case "kind", "apiVersion":
			tok, err := dec.ReadToken()
			if err != nil || tok.Kind() != '"' {
				return false
			}
			if name == "kind" {
				h.Kind = tok.String()
			} else {
				h.APIVersion = tok.String()
			}
		case "metadata":
			raw, err := dec.ReadValue()
			if err != nil || !readMetadata(raw, h) {
				return false
			}
			haveMeta = true
		default:
			if dec.SkipValue() != nil {
				return false
			}
		}
	}
	return h.Name != "" && h.Namespace != "" && h.UID != "" && h.resourceVersion != ""
}

// headerMetadata is the part of an object's metadata a header keeps.
type headerMetadata struct {
	Name            string `json:"name"`
	Namespace       string `json:"namespace"`
	UID             string `json:"uid"`
	ResourceVersion string `json:"resourceVersion"`
	OwnerReferences []struct {
		UID string `json:"uid"`
	} `json:"ownerReferences"`
}

// readMetadata decodes the metadata raw into h.
func readMetadata(raw jsontext.Value, h *ObjectHeader) bool {
	var m headerMetadata
	if jsonv2.Unmarshal(raw, &m) != nil {
		return false
	}
	h.Name, h.Namespace, h.UID, h.resourceVersion = m.Name, m.Namespace, types.UID(m.UID), m.ResourceVersion
	for _, ref := range m.OwnerReferences {
		h.Owners = append(h.Owners, types.UID(ref.UID))
	}
	return true
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
