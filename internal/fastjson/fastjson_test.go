package fastjson_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/internal/fastjson"
)

// values are the shapes lscli encodes: Landscaper and core objects with
// raw JSON, times, bytes, maps and characters encoding/json treats apart.
func values() []any {
	now := metav1.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	meta := metav1.ObjectMeta{Name: "a<b>", Namespace: "n&m", CreationTimestamp: now, DeletionTimestamp: &now,
		Labels: map[string]string{"z": "1", "a": "\u2028"}, OwnerReferences: []metav1.OwnerReference{{UID: "u", Name: "o"}}}
	return []any{
		&lsv1alpha1.Installation{TypeMeta: metav1.TypeMeta{Kind: "Installation", APIVersion: "landscaper.gardener.cloud/v1alpha1"},
			ObjectMeta: meta, Spec: lsv1alpha1.InstallationSpec{Blueprint: lsv1alpha1.BlueprintDefinition{
				Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON([]byte(`{"blueprint.yaml":"x: <y> & \"z\"\n","n":1.5e300,"e":[],"o":{}}`))}}},
			Status: lsv1alpha1.InstallationStatus{InstallationPhase: lsv1alpha1.InstallationPhases.Succeeded, JobID: "j",
				LastError: &lsv1alpha1.Error{Message: "bad <thing>\n\ttab", LastUpdateTime: now}}},
		&lsv1alpha1.DataObject{ObjectMeta: meta, Data: lsv1alpha1.NewAnyJSON([]byte(`"just a string"`))},
		&lsv1alpha1.DeployItem{ObjectMeta: meta, Spec: lsv1alpha1.DeployItemSpec{Configuration: &runtime.RawExtension{Raw: []byte(`{"a": [1, 2]}`)}}},
		&corev1.Secret{ObjectMeta: meta, Data: map[string][]byte{"k": []byte("\x00\xff<>")}, StringData: map[string]string{"s": "é"}},
		&lsv1alpha1.DataObject{ObjectMeta: meta, Data: lsv1alpha1.NewAnyJSON([]byte(`"\ufffd"`))},
		map[string]any{"own": "\uFFFD"},
		map[string]any{"f": 1.0, "i": 12345678901234567890.0, "s": "<&>", "n": nil, "l": []any{true, "x"}},
		// Numbers decoded with UseNumber, as schemas are: encoding/json
		// writes them as the numbers they hold, not as strings.
		[]any{json.Number("1"), json.Number("-1.5e300"), json.Number("123456789012345678901234567890")},
		&struct {
			N json.Number  `json:"n"`
			E json.Number  `json:"e"`
			P *json.Number `json:"p"`
		}{N: "0.25"},
	}
}

func TestMarshalIsEncodingJSONWithoutHTMLEscaping(t *testing.T) {
	for _, v := range values() {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		got, err := fastjson.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got)+"\n" != want.String() {
			t.Errorf("%T:\ngot  %s\nwant %s", v, got, want.String())
		}
		buf := bytes.NewBufferString("before,")
		if err := fastjson.MarshalTo(buf, v); err != nil {
			t.Fatal(err)
		}
		if buf.String() != "before,"+string(got) {
			t.Errorf("%T: MarshalTo appended %s, want %s", v, buf.String(), got)
		}
	}
}

func TestUnmarshalIsEncodingJSON(t *testing.T) {
	for _, v := range values() {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		typ := reflect.TypeOf(v)
		if typ.Kind() != reflect.Pointer {
			typ = reflect.PointerTo(typ)
		}
		got, want := reflect.New(typ.Elem()).Interface(), reflect.New(typ.Elem()).Interface()
		if err := fastjson.Unmarshal(data, got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%T:\ngot  %#v\nwant %#v", v, got, want)
		}
	}
}

// TestErrorsAreEncodingJSONs: where the fast code refuses, the result and
// the error are encoding/json's.
func TestErrorsAreEncodingJSONs(t *testing.T) {
	for _, data := range []string{`{"a":`, `{"a":"x"}`, `[1,2]`, `{"creationTimestamp":"noon"}`} {
		var got, want struct {
			A                 int         `json:"a"`
			CreationTimestamp metav1.Time `json:"creationTimestamp"`
		}
		got.A = 7
		gotErr, wantErr := fastjson.Unmarshal([]byte(data), &got), json.Unmarshal([]byte(data), &want)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, %v; want %+v, %v", data, got, gotErr, want, wantErr)
		}
	}
	for _, data := range []string{`{"n":"12"}`, `{"n":"x"}`, `{"n":null}`, `{"n":true}`} {
		var got, want struct {
			N json.Number `json:"n"`
		}
		gotErr, wantErr := fastjson.Unmarshal([]byte(data), &got), json.Unmarshal([]byte(data), &want)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || got != want {
			t.Errorf("%s: %+v, %v; want %+v, %v", data, got, gotErr, want, wantErr)
		}
	}
	for _, bad := range []json.Number{"x", "1 ", "01", "\"1\""} {
		_, gotErr := fastjson.Marshal([]any{bad})
		_, wantErr := json.Marshal([]any{bad})
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("Marshal(json.Number(%q)) error %v, want %v", bad, gotErr, wantErr)
		}
	}
	_, gotErr := fastjson.Marshal(map[string]any{"f": func() {}})
	_, wantErr := json.Marshal(map[string]any{"f": func() {}})
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Errorf("Marshal error %v, want %v", gotErr, wantErr)
	}
	buf := bytes.NewBufferString("kept")
	if err := fastjson.MarshalTo(buf, map[string]any{"a": 1, "f": func() {}}); fmt.Sprint(err) != fmt.Sprint(wantErr) || buf.String() != "kept" {
		t.Errorf("MarshalTo: buffer %q, error %v; want the buffer as it was and %v", buf.String(), err, wantErr)
	}
}

// TestIndenterIsIndent: Indenter.Append gives the bytes of json.Indent of
// what Marshal gives, with raw JSON of several layouts and escapes inside,
// after what the buffer held.
func TestIndenterIsIndent(t *testing.T) {
	raws := []string{`{"a": [1, 2], "b":{ }, "c" : [ ]}`, `"\u00e9\/\"x\u2028"`, `[{"k":"\ud83d\ude00"},null,true,-0.5e-3]`, `{"<":"&>"}`}
	vs := values()
	for _, r := range raws {
		vs = append(vs, &lsv1alpha1.DataObject{Data: lsv1alpha1.NewAnyJSON([]byte(r))},
			&lsv1alpha1.DeployItem{Spec: lsv1alpha1.DeployItemSpec{Configuration: &runtime.RawExtension{Raw: []byte(r)}}})
	}
	vs = append(vs, []any{}, map[string]any{}, "plain", 3, nil, func() {})
	for _, prefix := range []string{"", "        "} {
		in := fastjson.NewIndenter(prefix, "    ")
		for _, v := range vs {
			compact, merr := fastjson.Marshal(v)
			buf := bytes.NewBufferString("before,")
			err := in.Append(buf, v)
			if (err != nil) != (merr != nil) {
				t.Fatalf("%T: Append error %v, Marshal error %v", v, err, merr)
			}
			if err != nil {
				if buf.String() != "before," {
					t.Errorf("%T: a failed Append left %q", v, buf.String())
				}
				continue
			}
			want := bytes.NewBufferString("before,")
			if err := json.Indent(want, compact, prefix, "    "); err != nil {
				t.Fatal(err)
			}
			if buf.String() != want.String() {
				t.Errorf("%T, prefix %q:\ngot  %s\nwant %s", v, prefix, buf.String(), want.String())
			}
		}
	}
}

// TestMarshalEscapedIsEncodingJSON: MarshalEscaped gives json.Marshal's
// bytes, HTML characters escaped, on the shapes lscli hashes and prints.
func TestMarshalEscapedIsEncodingJSON(t *testing.T) {
	vs := append(values(), map[string]any{"data": map[string]any{"<k>": "a&b\u2028\u2029", "l": []any{json.Number("12"), 1.5, "\x01é"}}},
		"\xff<", map[string]any{"bin": "\xff<\xc3", "cut": "a\xed\xa0\x80", "own": "\uFFFD"}, func() {})
	for _, v := range vs {
		want, werr := json.Marshal(v)
		got, err := fastjson.MarshalEscaped(v)
		if (err != nil) != (werr != nil) || (err != nil && err.Error() != werr.Error()) {
			t.Fatalf("%T: error %v, want %v", v, err, werr)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%T:\ngot  %s\nwant %s", v, got, want)
		}
	}
}

// TestMarshalWritesInvalidUTF8AsTheReplacement: Marshal writes invalid
// UTF-8 as U+FFFD itself (encoding/json: \ufffd), and what it wrote
// decodes and encodes to the same bytes.
func TestMarshalWritesInvalidUTF8AsTheReplacement(t *testing.T) {
	v := map[string]any{"bin": "\xff<\xc3", "own": "\uFFFD"}
	got, err := fastjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\"bin\":\"\uFFFD<\uFFFD\",\"own\":\"\uFFFD\"}"; string(got) != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
	var back any
	if err := fastjson.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	again, err := fastjson.Marshal(back)
	if err != nil || !bytes.Equal(again, got) {
		t.Errorf("decoded and encoded again: %s, %v; want %s", again, err, got)
	}
}

// TestWrittenAsIs: a string WrittenAsIs accepts is written by Marshal
// between quotes as it is, for every single byte and a few strings.
func TestWrittenAsIs(t *testing.T) {
	strs := []string{"", "landscaper.gardener.cloud/v1alpha1", "a<b>&c", "x y~"}
	for b := range 256 {
		strs = append(strs, string([]byte{byte(b)}))
	}
	accepted := 0
	for _, s := range strs {
		if !fastjson.WrittenAsIs(s) {
			continue
		}
		accepted++
		got, err := fastjson.Marshal(s)
		if err != nil || string(got) != `"`+s+`"` {
			t.Errorf("%q: Marshal = %s, %v; WrittenAsIs says it is written as it is", s, got, err)
		}
	}
	if accepted != 4+95-2 {
		t.Errorf("%d strings accepted, want the 4 and the 93 printable bytes but '\"' and '\\'", accepted)
	}
}

// FuzzIndenterIsIndent: for any raw JSON inside an object, Indenter.Append
// gives what json.Indent makes of Marshal's bytes, or fails where Marshal
// fails.
func FuzzIndenterIsIndent(f *testing.F) {
	for _, seed := range []string{`{"a": [1, 2.5e3, -0, 1E+2]}`, `"\u00e9\/\"x\u2028"`, `[ { } , [ ] , null ]`, `{"<":"&>","k":"\ud83d\ude00"}`, `1e400`} {
		f.Add(seed)
	}
	in := fastjson.NewIndenter("  ", "\t")
	f.Fuzz(func(t *testing.T, raw string) {
		v := &lsv1alpha1.DataObject{Data: lsv1alpha1.NewAnyJSON([]byte(raw))}
		compact, merr := fastjson.Marshal(v)
		var got bytes.Buffer
		err := in.Append(&got, v)
		if (err != nil) != (merr != nil) {
			t.Fatalf("%q: Append error %v, Marshal error %v", raw, err, merr)
		}
		if err != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact, "  ", "\t"); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("%q:\ngot  %s\nwant %s", raw, got.String(), want.String())
		}
	})
}
