package state

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// headerReader reads object headers, one line after the other (see
// readHeader). It keeps the strings that repeat from line to line (kinds,
// apiVersions, namespaces) once.
type headerReader struct {
	dec    jsontext.Decoder
	rd     bytes.Reader
	common map[string]string
}

// readHeader reads kind, apiVersion and metadata from the start of an
// object line into h, and stops there. It reports false when data does
// not start as Save writes objects or lacks what Restore would fill in.
func (r *headerReader) readHeader(data []byte, h *ObjectHeader) bool {
	if r.scanHeader(data, h) {
		return r.complete(h)
	}
	r.rd.Reset(data)
	return r.readTokens(h)
}

// readTokens is readHeader's slow way, token by token, for lines that
// scanHeader leaves to it; it reads r.rd.
func (r *headerReader) readTokens(h *ObjectHeader) bool {
	dec := &r.dec
	dec.Reset(&r.rd, jsontext.AllowDuplicateNames(true))
	if !readDelim(dec, '{') {
		return false
	}
	var haveMeta bool
	for h.Kind == "" || h.APIVersion == "" || !haveMeta {
		name, ok := readName(dec)
		if !ok {
			return false
		}
		switch string(name) {
		case `"kind"`:
			h.Kind, ok = r.readCommon(dec)
		case `"apiVersion"`:
			h.APIVersion, ok = r.readCommon(dec)
		case `"metadata"`:
			ok, haveMeta = r.readMetadata(h), true
		default:
			ok = dec.SkipValue() == nil
		}
		if !ok {
			return false
		}
	}
	return r.complete(h)
}

// complete reports whether h has what Restore would otherwise fill in.
func (r *headerReader) complete(h *ObjectHeader) bool {
	namespaced := h.Namespace != "" ||
		fakecluster.ClusterScoped(schema.GroupKind{Group: groupOf(h.APIVersion), Kind: h.Kind})
	return h.Name != "" && namespaced && h.UID != "" && h.resourceVersion != ""
}

// readMetadata reads the object's metadata, a JSON object, into h, up to
// its ownerReferences: what follows them in Save's order (finalizers,
// managedFields) is not needed.
func (r *headerReader) readMetadata(h *ObjectHeader) bool {
	dec := &r.dec
	if !readDelim(dec, '{') {
		return false
	}
	for dec.PeekKind() == '"' {
		name, _ := readName(dec)
		var ok bool
		switch string(name) {
		case `"name"`:
			h.Name, ok = readString(dec)
		case `"namespace"`:
			h.Namespace, ok = r.readCommon(dec)
		case `"uid"`:
			var uid string
			uid, ok = readString(dec)
			h.UID = types.UID(uid)
		case `"resourceVersion"`:
			h.resourceVersion, ok = readString(dec)
		case `"ownerReferences"`:
			return readOwners(dec, h)
		default:
			ok = dec.SkipValue() == nil
		}
		if !ok {
			return false
		}
	}
	return readDelim(dec, '}')
}

// readCommon reads a string token that many lines share, keeping one copy.
func (r *headerReader) readCommon(dec *jsontext.Decoder) (string, bool) {
	v, err := dec.ReadValue()
	if err != nil || v.Kind() != '"' {
		return "", false
	}
	if bytes.IndexByte(v, '\\') >= 0 {
		s, err := jsontext.AppendUnquote(nil, v)
		return string(s), err == nil
	}
	return r.intern(v[1 : len(v)-1]), true
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
			name, _ := readName(dec)
			if string(name) != `"uid"` {
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

// readName reads an object member's name as it is written, quotes and all,
// without copying it: the bytes are valid until the next read. A name
// written with escapes matches none of the names looked for, so its value
// is skipped.
func readName(dec *jsontext.Decoder) ([]byte, bool) {
	v, err := dec.ReadValue()
	if err != nil || v.Kind() != '"' {
		return nil, false
	}
	return v, true
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
