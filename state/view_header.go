package state

import (
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

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
