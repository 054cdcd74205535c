// Package fastjson encodes and decodes JSON exactly as encoding/json does,
// on the code of encoding/json/v2 (github.com/go-json-experiment/json, which
// this Go only ships behind GOEXPERIMENT): the same bytes and values, in a
// fraction of the time and allocations on Landscaper's types. lscli uses it
// where JSON is on the hot path: the state file and the -o json output.
package fastjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// compact makes jsonv2 encode as encoding/json does, without escaping <, >
// and & (as an Encoder with SetEscapeHTML(false)), for values whose type
// cannot hold an encoding/json Number.
var compact = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsontext.EscapeForHTML(false))

// compactAny is compact for values that may hold an encoding/json Number
// (a value decoded with UseNumber, in an interface or a field of its own).
// Looking the Number marshaler up for every value costs a tenth of encoding
// an object, so values whose type cannot hold one go without it.
var compactAny = jsonv2.JoinOptions(compact, jsonv2.WithMarshalers(jsonv2.MarshalToFunc(marshalNumber)))

// optionsFor returns the encoding options for v.
func optionsFor(v any) jsonv2.Options {
	if mayHoldNumber(reflect.TypeOf(v)) {
		return compactAny
	}
	return compact
}

// numberHolders caches mayHoldNumber by type.
var numberHolders sync.Map // reflect.Type → bool

// mayHoldNumber reports whether a value of type t may hold an encoding/json
// Number where encoding/json encodes it: t is one, or an interface, or
// holds one in an element or an exported field that is encoded. API
// objects hold none (RawExtension's Object field is not encoded).
func mayHoldNumber(t reflect.Type) bool {
	if t == nil {
		return false
	}
	if known, ok := numberHolders.Load(t); ok {
		return known.(bool)
	}
	holds := holdsNumber(t, map[reflect.Type]bool{})
	numberHolders.Store(t, holds)
	return holds
}

func holdsNumber(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch {
	case t == reflect.TypeFor[json.Number]():
		return true
	case t.Kind() == reflect.Interface:
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return holdsNumber(t.Elem(), seen)
	case reflect.Map:
		return holdsNumber(t.Key(), seen) || holdsNumber(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous || f.Tag.Get("json") == "-" {
				continue
			}
			if holdsNumber(f.Type, seen) {
				return true
			}
		}
	}
	return false
}

// marshalNumber writes an encoding/json Number as the number it holds (""
// as 0), as encoding/json does; jsonv2 knows only its own Number type and
// would write a string. Anything but a valid number literal is refused, so
// that encoding/json reports it.
func marshalNumber(enc *jsontext.Encoder, n json.Number) error {
	if n == "" {
		n = "0"
	}
	if v := jsontext.Value(n); !v.IsValid() || v.Kind() != '0' || strings.TrimSpace(string(n)) != string(n) {
		return fmt.Errorf("invalid number literal %q", string(n))
	}
	return enc.WriteValue(jsontext.Value(n))
}

// replacementChar is U+FFFD in UTF-8.
var replacementChar = []byte("\uFFFD")

// mayHoldInvalidUTF8 reports whether data, written by the fast encoder,
// holds U+FFFD: either a string held it, or the encoder replaced invalid
// UTF-8 with it, which encoding/json writes escaped (\ufffd) and the fast
// encoder as it is (see Marshal).
func mayHoldInvalidUTF8(data []byte) bool { return bytes.Contains(data, replacementChar) }

// Marshal returns the bytes of json.Marshal(v), but with <, > and & as they
// are: what an encoding/json Encoder with SetEscapeHTML(false) writes,
// without the newline. One difference is kept: invalid UTF-8 in a string
// (binary from a template's b64dec, a string cut inside a character) is
// written as U+FFFD itself, where encoding/json writes \ufffd. Both decode
// to the same string, and that string encodes to the same bytes again,
// which the state file's reused lines rest on. Where the fast encoder
// refuses v, encoding/json encodes it, so that the result and the error
// are encoding/json's.
func Marshal(v any) ([]byte, error) {
	if data, err := jsonv2.Marshal(v, optionsFor(v)); err == nil {
		return data, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// WrittenAsIs reports whether Marshal writes s between quotes as it is:
// s is printable ASCII without '"' and '\\'. Code that writes the JSON of
// such strings itself (the state's events, the swapped TypeMeta of -o
// json) relies on it.
func WrittenAsIs(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// escaped and escapedAny are compact and compactAny with <, > and &
// escaped, as json.Marshal escapes them.
var (
	escaped    = jsonv2.JoinOptions(compact, jsontext.EscapeForHTML(true))
	escapedAny = jsonv2.JoinOptions(compactAny, jsontext.EscapeForHTML(true))
)

// MarshalEscaped returns the bytes of json.Marshal(v), <, > and & escaped
// as \u003c, \u003e and \u0026, for bytes that must stay what
// encoding/json made them (hashes of values), invalid UTF-8 included: a
// value that may hold it, and any the fast encoder refuses, is encoded by
// encoding/json.
func MarshalEscaped(v any) ([]byte, error) {
	opts := escaped
	if mayHoldNumber(reflect.TypeOf(v)) {
		opts = escapedAny
	}
	if data, err := jsonv2.Marshal(v, opts); err == nil && !mayHoldInvalidUTF8(data) {
		return data, nil
	}
	return json.Marshal(v)
}

// MarshalTo appends to buf what Marshal returns for v, without a slice of
// its own for the bytes: encoding many values one after the other into one
// buffer then allocates nothing per value. On error buf is as it was.
func MarshalTo(buf *bytes.Buffer, v any) error {
	n := buf.Len()
	if jsonv2.MarshalWrite(buf, v, optionsFor(v)) == nil {
		return nil
	}
	buf.Truncate(n)
	data, err := Marshal(v)
	if err != nil {
		return err
	}
	buf.Write(data)
	return nil
}

// Indenter appends values as Marshal encodes them, indented as json.Indent
// indents them with its prefix and indent, in one pass instead of two; and
// indents JSON already encoded the same way (Format).
type Indenter struct {
	plain, withNumbers jsonv2.Options
	format             jsonv2.Options
}

// NewIndenter returns an Indenter whose lines after the first start with
// prefix, each level indented by indent.
func NewIndenter(prefix, indent string) *Indenter {
	layout := jsonv2.JoinOptions(jsontext.Multiline(true), jsontext.SpaceAfterColon(true),
		jsontext.WithIndentPrefix(prefix), jsontext.WithIndent(indent))
	return &Indenter{plain: jsonv2.JoinOptions(compact, layout), withNumbers: jsonv2.JoinOptions(compactAny, layout),
		format: jsonv2.JoinOptions(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true),
			jsontext.PreserveRawStrings(true), layout)}
}

// Append appends v to buf, indented. Where the fast encoder refuses v, it
// is encoded by Marshal and indented after, so that the result and the
// error are those of encoding/json. On error buf is as it was.
func (in *Indenter) Append(buf *bytes.Buffer, v any) error {
	opts := in.plain
	if mayHoldNumber(reflect.TypeOf(v)) {
		opts = in.withNumbers
	}
	n := buf.Len()
	if jsonv2.MarshalWrite(buf, v, opts) == nil {
		return nil
	}
	buf.Truncate(n)
	data, err := Marshal(v)
	if err != nil {
		return err
	}
	out, err := in.Format(buf.AvailableBuffer(), data)
	if err != nil {
		return err
	}
	buf.Write(out)
	return nil
}

// Format appends compact, JSON as Marshal writes it, to dst, indented as
// Append indents.
func (in *Indenter) Format(dst, compact []byte) ([]byte, error) {
	return jsontext.AppendFormat(dst, compact, in.format)
}

// unmarshal decodes as encoding/json does (jsonv1's defaults), with
// metav1.Time read the way its UnmarshalJSON reads it but without the detour
// through encoding/json that costs a fifth of decoding a Kubernetes object.
var unmarshal = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(),
	jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(jsonv2.UnmarshalFromFunc(unmarshalTime),
		jsonv2.UnmarshalFromFunc(unmarshalNumber))))

// Unmarshal does what json.Unmarshal(data, into) does, into a pointer.
// Where the fast decoder refuses data, the value into points to is reset
// and encoding/json decodes it, so that the result and the error are
// encoding/json's.
func Unmarshal(data []byte, into any) error {
	if jsonv2.Unmarshal(data, into, unmarshal) == nil {
		return nil
	}
	if v := reflect.ValueOf(into); v.Kind() == reflect.Pointer && !v.IsNil() {
		v.Elem().SetZero()
	}
	return json.Unmarshal(data, into)
}

// asWritten decodes as unmarshal does, but matches a name only to the field
// of that very name and refuses a name given twice, as sigs.k8s.io/json's
// case-sensitive decoding matches names and reports repeated ones.
// asWrittenKnown also refuses a name that no field has, as its strict
// decoding reports them.
var (
	asWritten      = jsonv2.JoinOptions(unmarshal, jsonv2.MatchCaseInsensitiveNames(false), jsontext.AllowDuplicateNames(false))
	asWrittenKnown = jsonv2.JoinOptions(asWritten, jsonv2.RejectUnknownMembers(true))
)

// UnmarshalStrict decodes data into into, a pointer, where
// sigs.k8s.io/json's UnmarshalStrict would decode it without an error or a
// strict error, and into the same value: every name matches a field as
// written, once, and no integer has to be kept apart from floats in an
// interface (UnmarshalStrict's PreserveInts). It reports whether it did;
// where it did not, into is reset, and the caller decodes with
// sigs.k8s.io/json, for its value and its messages. It takes a fifth of
// the time on Landscaper's objects, which hold large inline blueprints.
func UnmarshalStrict(data []byte, into any) bool {
	return unmarshalAsWritten(data, into, asWrittenKnown)
}

// UnmarshalCaseSensitive is UnmarshalStrict for sigs.k8s.io/json's
// UnmarshalCaseSensitivePreserveInts: names that no field has are skipped.
func UnmarshalCaseSensitive(data []byte, into any) bool {
	return unmarshalAsWritten(data, into, asWritten)
}

func unmarshalAsWritten(data []byte, into any, opts jsonv2.Options) bool {
	v := reflect.ValueOf(into)
	if v.Kind() != reflect.Pointer || v.IsNil() || mayHoldNumber(v.Type()) {
		return false
	}
	if jsonv2.Unmarshal(data, into, opts) == nil {
		return true
	}
	v.Elem().SetZero()
	return false
}

// unmarshalNumber reads a JSON number into an encoding/json Number, as
// encoding/json does. Anything else (a quoted number, null) is refused and
// left to encoding/json, whose rules for those are its own.
func unmarshalNumber(dec *jsontext.Decoder, n *json.Number) error {
	if dec.PeekKind() != '0' {
		return fmt.Errorf("a Number must be a number, not %s", dec.PeekKind())
	}
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*n = json.Number(v)
	return nil
}

// unmarshalTime does what (*metav1.Time).UnmarshalJSON does: null is the
// zero time, a string an RFC 3339 time in the local time zone.
func unmarshalTime(dec *jsontext.Decoder, t *metav1.Time) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	switch tok.Kind() {
	case 'n':
		t.Time = time.Time{}
		return nil
	case '"':
		pt, err := time.Parse(time.RFC3339, tok.String())
		if err != nil {
			return err
		}
		t.Time = pt.Local()
		return nil
	}
	return fmt.Errorf("a time must be a string, not %s", tok.Kind())
}
