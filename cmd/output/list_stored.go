package output

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lscli/lscli/state"
)

// ErrNotStoredForm is ListStored's answer when an object's JSON does not
// start as Save writes it; the caller then decodes the objects and calls
// List, which shows them.
var ErrNotStoredForm = errors.New("object not in the state file's form")

// ListStored writes objs as List(decoded, format, w) writes the objects
// they decode to, without decoding them: for FormatJSON the JSON of each is
// re-indented as a list item, with apiVersion moved before kind; for
// FormatYAML it is converted as List converts the JSON it encodes. It is
// for `get -o json|yaml` of many objects, where decoding and encoding again
// was most of the time.
//
// That the two are the same bytes rests on encoding an object, decoding
// it and encoding it again giving the first encoding, for every kind a
// state file holds; TestListStoredIsList checks it over random objects of
// every kind. When an object's JSON does not start with "kind" and
// "apiVersion", ListStored writes nothing and returns ErrNotStoredForm.
// JSON that does not parse is an error naming the object, after the items
// before its chunk were written.
func ListStored(objs []state.StoredObject, format string, w io.Writer) error {
	sorted := sortListOrder(objs, func(o state.StoredObject) (string, string, string) { return o.Kind, o.Namespace, o.Name })
	parts := make([]storedParts, len(sorted))
	for i, o := range sorted {
		var ok bool
		if parts[i], ok = splitStored(o); !ok {
			return fmt.Errorf("%s %s: %w", o.Kind, qualified(o.Namespace, o.Name), ErrNotStoredForm)
		}
	}
	form := jsonList
	if format == FormatYAML {
		form = yamlList
	}
	return writeItems(len(sorted), w, form, func(i int, dst, scratch []byte) ([]byte, []byte, error) {
		o, p := sorted[i], parts[i]
		scratch = append(scratch[:0], `{"apiVersion":"`...)
		scratch = append(scratch, p.apiVersion...)
		scratch = append(scratch, `","kind":"`...)
		scratch = append(scratch, o.Kind...)
		scratch = append(scratch, '"')
		if p.rest[0] != '}' {
			scratch = append(scratch, ',')
		}
		scratch = append(scratch, p.rest...)
		out, err := appendListItem(dst, scratch, format)
		switch {
		case err != nil && format == FormatYAML:
			return dst, scratch, fmt.Errorf("convert %s %s to YAML: %w", o.Kind, qualified(o.Namespace, o.Name), err)
		case err != nil:
			return dst, scratch, fmt.Errorf("%s %s: %w", o.Kind, qualified(o.Namespace, o.Name), err)
		}
		return out, scratch, nil
	})
}

// storedParts are the parts of a Stored object's JSON that ListStored
// puts together again: the apiVersion, and what follows it.
type storedParts struct {
	apiVersion []byte
	// rest is `"metadata":...}` (the comma before it cut off), or `}` for
	// an object of nothing else.
	rest []byte
}

// splitStored splits o's JSON, `{"kind":"K","apiVersion":"V",REST`, where K
// is o.Kind and neither string holds an escape. ok is false for JSON of
// any other start.
func splitStored(o state.StoredObject) (p storedParts, ok bool) {
	if o.Kind == "" || strings.ContainsAny(o.Kind, `"\\`) {
		return p, false
	}
	b, ok := bytes.CutPrefix(o.JSON, []byte(`{"kind":"`+o.Kind+`","apiVersion":"`))
	if !ok {
		return p, false
	}
	end := bytes.IndexByte(b, '"')
	if end <= 0 || bytes.IndexByte(b[:end], '\\') >= 0 {
		return p, false
	}
	p.apiVersion, b = b[:end], b[end+1:]
	switch {
	case len(b) > 2 && b[0] == ',' && b[1] == '"':
		p.rest = b[1:]
	case string(b) == "}":
		p.rest = b
	default:
		return p, false
	}
	return p, true
}
