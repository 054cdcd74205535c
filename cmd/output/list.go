package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/internal/parallel"
	"github.com/lscli/lscli/internal/yamlout"
)

// The formats List writes.
const (
	FormatJSON = "json"
	FormatYAML = "yaml"
)

// kubeList is a Kubernetes List, the shape of `kubectl get -o json`.
type kubeList struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Items      []json.RawMessage `json:"items"`
}

// List writes objs to w as a Kubernetes List (apiVersion v1, kind List) in
// format "json" (indented by 4 spaces, like kubectl) or "yaml". Items are in
// Landscaper's API shape (apiVersion, kind, metadata, spec, status), sorted
// by kind (Installation, Execution, DeployItem, Target, DataObject, Context,
// Secret, ConfigMap, then other kinds by name), namespace and name. An
// Execution shows spec.deployItems in clear, never deployItemsCompressed.
//
// apiVersion and kind come from the object's TypeMeta when it is set, else
// from its Go type, which must then be one of the Landscaper core/v1alpha1
// or core/v1 types. List does not change objs.
func List(objs []fakecluster.Object, format string, w io.Writer) error {
	if format != FormatJSON && format != FormatYAML {
		return fmt.Errorf("unknown output format %q (allowed: %s, %s)", format, FormatJSON, FormatYAML)
	}
	return writeObjectList(sortObjects(objs), format, w)
}

// writeList writes list as JSON (indented by 4 spaces, like kubectl) or YAML.
func writeList(list kubeList, format string, w io.Writer) error {
	data, err := marshalJSON(list, "    ")
	if err != nil {
		return fmt.Errorf("encode list: %w", err)
	}
	if format == FormatYAML {
		if data, err = yamlout.FromJSON(data); err != nil {
			return fmt.Errorf("convert list to YAML: %w", err)
		}
	}
	_, err = w.Write(data)
	return err
}

// listRound is how many items writeItems appends, on all cores,
// before it writes them.
const listRound = 512

// writeObjectList streams objs to w as a Kubernetes List in format: the
// bytes encoding/json's indenting encoder gives (and sigs.k8s.io/yaml for
// the whole List), but each item is encoded and converted once, in
// parallel, and written as soon as its round is done, so that the output
// is never in memory twice.
func writeObjectList(objs []fakecluster.Object, format string, w io.Writer) error {
	form := jsonList
	if format == FormatYAML {
		form = yamlList
	}
	return writeItems(len(objs), w, form, func(i int, dst, _ []byte) ([]byte, []byte, error) {
		if format != FormatYAML {
			if out, ok := appendIndentedItem(dst, objs[i]); ok {
				return out, nil, nil
			}
		}
		item, err := marshalItem(objs[i])
		if err != nil {
			return dst, nil, fmt.Errorf("encode %s %s: %w", kindOf(objs[i]), qualifiedName(objs[i]), err)
		}
		out, err := appendListItem(dst, item, format)
		switch {
		case err != nil && format == FormatYAML:
			return dst, nil, fmt.Errorf("convert %s %s to YAML: %w", kindOf(objs[i]), qualifiedName(objs[i]), err)
		case err != nil:
			return dst, nil, fmt.Errorf("encode %s %s: %w", kindOf(objs[i]), qualifiedName(objs[i]), err)
		}
		return out, nil, nil
	})
}

// itemFunc appends item i of a List, indented as a list item, to dst. It
// may use scratch, and returns it (grown) for the next item.
type itemFunc func(i int, dst, scratch []byte) (out, scratchOut []byte, err error)

// listForm is how a List is written around its items.
type listForm struct {
	// empty is the whole List without items; head starts a List with
	// items, tail ends it.
	empty, head, tail string
	// first comes before the first item, next before each other.
	first, next string
}

// The List forms of kubectl's -o json (encoding/json indented by 4 spaces)
// and -o yaml (sigs.k8s.io/yaml's keys in order, compact sequences).
var (
	jsonList = listForm{
		empty: "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"items\": []\n}\n",
		head:  "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"List\",\n    \"items\": [",
		tail:  "\n    ]\n}\n",
		first: "\n        ", next: ",\n        ",
	}
	yamlList = listForm{
		empty: "apiVersion: v1\nitems: []\nkind: List\n",
		head:  "apiVersion: v1\nitems:\n",
		tail:  "kind: List\n",
	}
)

// writeItems streams n items to w as a List of form. It appends a round of
// items at a time, each core a contiguous range of them into a buffer of
// its own, and writes the buffers when the round is done. The List starts
// only once its first round is done, so that an error there leaves nothing
// written.
func writeItems(n int, w io.Writer, form listForm, item itemFunc) error {
	if n == 0 {
		_, err := io.WriteString(w, form.empty)
		return err
	}
	bufs := make([][]byte, parallel.Workers())
	scratch := make([][]byte, len(bufs))
	for lo := 0; lo < n; lo += listRound {
		ranges := parallel.Chunks(lo, min(lo+listRound, n), 1)
		err := parallel.Run(ranges, func(c, lo, hi int) error {
			buf := bufs[c][:0]
			var err error
			for i := lo; i < hi; i++ {
				if i > 0 {
					buf = append(buf, form.next...)
				} else {
					buf = append(buf, form.first...)
				}
				if buf, scratch[c], err = item(i, buf, scratch[c]); err != nil {
					return err
				}
			}
			bufs[c] = buf
			return nil
		})
		if err != nil {
			return err
		}
		if lo == 0 {
			if _, err := io.WriteString(w, form.head); err != nil {
				return err
			}
		}
		for c := range ranges {
			if _, err := w.Write(bufs[c]); err != nil {
				return err
			}
		}
	}
	_, err := io.WriteString(w, form.tail)
	return err
}

// marshalItem encodes o with apiVersion and kind first, as kubectl shows
// them (TypeMeta's own field order is kind, apiVersion).
//
// An object whose TypeMeta is set, as every object lscli stores is, is
// encoded as it is: TypeMeta comes first in its JSON, so swapping its two
// members in place gives the item (see swapTypeMeta). Anything else takes
// marshalItemCopy's way, which gives the same bytes
// (TestMarshalItemIsMarshalItemCopy).
func marshalItem(o fakecluster.Object) (json.RawMessage, error) {
	if v, apiVersion, kind, ok := swappable(o); ok {
		body, err := marshalCompact(v)
		if err != nil {
			return nil, err
		}
		if swapTypeMeta(body, apiVersion, kind, compactLayout) {
			return body, nil
		}
	}
	return marshalItemCopy(o)
}

// listItemIndenter encodes an item of a JSON List, indented by 4 under
// itemPrefix.
var listItemIndenter = fastjson.NewIndenter(itemPrefix, "    ")

// appendIndentedItem appends o to dst as an item of a JSON List, as
// appendListItem appends marshalItem(o), but encoded indented in one pass
// (TestAppendIndentedItemIsAppendListItem). ok is false, and dst is
// unchanged, for an object that needs marshalItem's other way or does not
// encode.
func appendIndentedItem(dst []byte, o fakecluster.Object) (out []byte, ok bool) {
	v, apiVersion, kind, ok := swappable(o)
	if !ok {
		return dst, false
	}
	n := len(dst)
	buf := bytes.NewBuffer(dst)
	if listItemIndenter.Append(buf, v) != nil {
		return dst, false
	}
	out = buf.Bytes()
	if !swapTypeMeta(out[n:], apiVersion, kind, indentedItemLayout) {
		return out[:n], false
	}
	return out, true
}

// swappable returns what marshalItem encodes of o, and o's apiVersion and
// kind, when it may encode it with TypeMeta and swap that in place (see
// swapTypeMeta): o's TypeMeta is set, to strings JSON writes as they are.
// What it encodes is
// o itself, or an Execution's form with its deploy items in clear.
func swappable(o fakecluster.Object) (v any, apiVersion, kind string, ok bool) {
	gvk := o.GetObjectKind().GroupVersionKind()
	apiVersion = gvk.GroupVersion().String()
	if gvk.Kind == "" || gvk.Version == "" || !fastjson.WrittenAsIs(gvk.Kind) || !fastjson.WrittenAsIs(apiVersion) {
		return nil, "", "", false
	}
	if exec, isExec := o.(*lsv1alpha1.Execution); isExec {
		inClear, err := fakecluster.InClear(exec, exec.TypeMeta)
		if err != nil {
			return nil, "", "", false // marshalItemCopy reports it
		}
		return inClear, apiVersion, gvk.Kind, true
	}
	return o, apiVersion, gvk.Kind, true
}

// layout is how an encoded object starts and separates its members.
type layout struct{ open, colon, sep string }

var (
	// compactLayout is the layout of compact JSON.
	compactLayout = layout{open: "{", colon: ":", sep: ","}
	// indentedItemLayout is the layout of an item indented by
	// listItemIndenter.
	indentedItemLayout = layout{open: "{\n" + itemPrefix + "    ", colon: ": ", sep: ",\n" + itemPrefix + "    "}
)

// swapTypeMeta turns the start {"kind":K,"apiVersion":A of item, an
// object's JSON in layout l, into {"apiVersion":A,"kind":K, in place (both
// have the same length), and reports whether item started so. apiVersion
// and kind must be as item writes them between quotes (see
// fastjson.WrittenAsIs).
func swapTypeMeta(item []byte, apiVersion, kind string, l layout) bool {
	rest, ok := cutPrefixes(item, l.open, `"kind"`, l.colon, `"`, kind, `"`, l.sep, `"apiVersion"`, l.colon, `"`, apiVersion, `"`)
	if !ok || len(rest) == 0 || !strings.ContainsRune(",}\n", rune(rest[0])) {
		return false
	}
	// Both starts have the same length: the appends write over the old
	// one, within item.
	w := append(item[:0], l.open...)
	w = append(w, `"apiVersion"`...)
	w = append(w, l.colon...)
	w = append(w, '"')
	w = append(w, apiVersion...)
	w = append(w, '"')
	w = append(w, l.sep...)
	w = append(w, `"kind"`...)
	w = append(w, l.colon...)
	w = append(w, '"')
	w = append(w, kind...)
	_ = append(w, '"')
	return true
}

// cutPrefixes returns what follows b's start when b starts with the
// concatenation of parts, without building it.
func cutPrefixes(b []byte, parts ...string) ([]byte, bool) {
	for _, p := range parts {
		if len(b) < len(p) || string(b[:len(p)]) != p {
			return nil, false
		}
		b = b[len(p):]
	}
	return b, true
}

// marshalItemCopy is marshalItem for any object: TypeMeta is cleared in a
// shallow copy of o (set from the scheme where o has none), the rest
// encoded and joined to an apiVersion and kind encoded first.
func marshalItemCopy(o fakecluster.Object) (json.RawMessage, error) {
	obj := shallowCopy(o)
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" {
		gvks, _, err := listScheme().ObjectKinds(obj)
		if err != nil {
			return nil, fmt.Errorf("set apiVersion and kind (set TypeMeta for types outside the Landscaper and core/v1 APIs): %w", err)
		}
		gvk = gvks[0]
	}
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	var body []byte
	var err error
	if exec, ok := obj.(*lsv1alpha1.Execution); ok {
		body, err = marshalExecution(exec)
	} else {
		body, err = marshalCompact(obj)
	}
	if err != nil {
		return nil, err
	}
	head, err := marshalJSON(struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}{gvk.GroupVersion().String(), gvk.Kind}, "")
	if err != nil {
		return nil, err
	}
	// Join {"apiVersion":..,"kind":..} and {"metadata":..}.
	if len(body) > 2 {
		head = append(head[:len(head)-1], ',')
		body = body[1:]
	} else {
		body = nil
	}
	return append(head, body...), nil
}

func marshalExecution(exec *lsv1alpha1.Execution) (json.RawMessage, error) {
	inClear, err := fakecluster.InClear(exec, exec.TypeMeta)
	if err != nil {
		return nil, err
	}
	return marshalCompact(inClear)
}

// marshalJSON encodes v without escaping <, > and & (templates in deploy
// item configurations read better that way), indented when indent is set,
// without a final newline unless indented.
func marshalJSON(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if indent == "" {
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
	}
	return buf.Bytes(), nil
}

// itemPrefix starts the lines of an item of a List after its first:
// kubectl indents the items by 8.
const itemPrefix = "        "

// appendListItem appends item, an object's compact JSON, to dst as an item
// of a List in format: indented (see listItemIndenter), or converted to YAML
// as the one element of a sequence, which puts it at the column it has in
// the List.
func appendListItem(dst, item []byte, format string) ([]byte, error) {
	if format == FormatYAML {
		y, err := yamlout.FromJSONItem(item)
		return append(dst, y...), err
	}
	return listItemIndenter.Format(dst, item)
}

// marshalCompact encodes v as marshalJSON(v, "") does.
func marshalCompact(v any) ([]byte, error) { return fastjson.Marshal(v) }

// listScheme knows the Go types of the kinds lscli stores.
var listScheme = sync.OnceValue(func() *kruntime.Scheme {
	s := kruntime.NewScheme()
	if err := lsv1alpha1.AddToScheme(s); err != nil {
		panic(err)
	}
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
})

// shallowCopy returns a copy of the struct o points to that shares its maps,
// slices and pointers: enough to clear its TypeMeta without changing o.
func shallowCopy(o fakecluster.Object) kruntime.Object {
	v := reflect.ValueOf(o).Elem()
	cp := reflect.New(v.Type())
	cp.Elem().Set(v)
	return cp.Interface().(kruntime.Object)
}
