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
	apiVersions := make([]string, len(sorted))
	for i, o := range sorted {
		var ok bool
		if apiVersions[i], ok = storedAPIVersion(o); !ok {
			return fmt.Errorf("%s %s: %w", o.Kind, qualified(o.Namespace, o.Name), ErrNotStoredForm)
		}
	}
	form := jsonList
	if format == FormatYAML {
		form = yamlList
	}
	return writeItems(len(sorted), w, form, func(i int, dst, scratch []byte) ([]byte, []byte, error) {
		o := sorted[i]
		scratch = append(scratch[:0], o.JSON...)
		swapTypeMeta(scratch, apiVersions[i], o.Kind, compactLayout) // storedAPIVersion saw the start it swaps
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

// storedAPIVersion returns the apiVersion V of o's JSON,
// `{"kind":"K","apiVersion":"V"` followed by `,"` or `}`, where K is
// o.Kind and neither string holds an escape: the start swapTypeMeta swaps.
// ok is false for JSON of any other start.
func storedAPIVersion(o state.StoredObject) (apiVersion string, ok bool) {
	if o.Kind == "" || strings.ContainsAny(o.Kind, `"\\`) {
		return "", false
	}
	b, ok := cutPrefixes(o.JSON, `{"kind":"`, o.Kind, `","apiVersion":"`) // list.go
	if !ok {
		return "", false
	}
	end := bytes.IndexByte(b, '"')
	if end <= 0 || bytes.IndexByte(b[:end], '\\') >= 0 {
		return "", false
	}
	if rest := b[end+1:]; !bytes.HasPrefix(rest, []byte(`,"`)) && string(rest) != "}" {
		return "", false
	}
	return string(b[:end]), true
}
