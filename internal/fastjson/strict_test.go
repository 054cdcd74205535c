package fastjson_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/randfill"

	"github.com/lscli/lscli/internal/fastjson"
)

// strictKinds are the objects a landscape's files hold.
var strictKinds = []func() any{
	func() any { return &lsv1alpha1.Installation{} },
	func() any { return &lsv1alpha1.Execution{} },
	func() any { return &lsv1alpha1.DeployItem{} },
	func() any { return &lsv1alpha1.Target{} },
	func() any { return &lsv1alpha1.DataObject{} },
	func() any { return &lsv1alpha1.Context{} },
}

// strictDocuments are documents as a landscape's YAML gives them, each
// fine or wrong in one of the ways sigs.k8s.io/json tells apart.
var strictDocuments = []string{
	`{"apiVersion":"landscaper.gardener.cloud/v1alpha1","kind":"Installation","metadata":{"name":"a","namespace":"n","labels":{"x":"y"}},` +
		`"spec":{"blueprint":{"inline":{"filesystem":{"blueprint.yaml":"kind: Blueprint\n","Blueprint.yaml":"x","n":1.5}}},` +
		`"imports":{"data":[{"name":"in","dataRef":"d"}]},"importDataMappings":{"a":{"b":[1,2.5,null]}}}}`,
	`{"apiVersion":"landscaper.gardener.cloud/v1alpha1","kind":"DataObject","metadata":{"name":"d"},"data":{"a":[1,-2,3.5e10,"x",true,null]}}`,
	`{"apiVersion":"landscaper.gardener.cloud/v1alpha1","kind":"Target","metadata":{"name":"t"},"spec":{"type":"landscaper.gardener.cloud/kubernetes-cluster","config":{"kubeconfig":"x"}}}`,
	`{"kind":"DeployItem","metadata":{"name":"di","creationTimestamp":"2025-01-01T00:00:00Z"},"spec":{"type":"t","config":{"a":1},"timeout":"10m"}}`,
	`{"kind":"Execution","metadata":{"name":"e"},"spec":{"deployItems":[{"name":"a","type":"t","config":{"x":1},"dependsOn":["b"]}]}}`,
	`{"metadata":{"name":"a"},"spec":{"unknown":1}}`,       // unknown field
	`{"metadata":{"name":"a","Namespace":"n"}}`,            // a name in another case
	`{"metadata":{"name":"a","name":"b"}}`,                 // a name given twice
	`{"Kind":"Installation","metadata":{"name":"a"}}`,      // a top-level name in another case
	`{"metadata":{"name":5}}`,                              // a wrong type
	`{"metadata":{"name":"a","labels":{"k":1}}}`,           // a wrong type in a map
	`{"metadata":{"name":null,"labels":null},"spec":null}`, // nulls
	`{"metadata":{"creationTimestamp":"noon"}}`,            // a bad time
	`{"metadata":{"generation":1.5}}`,                      // a float for an integer
	`{"metadata":{"generation":12345678901234567890}}`,     // an integer too large
	`{"status":{"phase":"Succeeded","observedGeneration":"1"}}`,
	`{"metadata":{"name":"\ud800"}}`, // a lone surrogate
	`{"metadata":{"name":"a"}} `,
	`{"metadata":{"name":"a"}}{}`,
	`{"metadata":{"name":"a"}`,
	`[]`,
	`null`,
}

// TestUnmarshalStrictIsSigs: where UnmarshalStrict decodes, sigs.k8s.io/json
// decodes the same value with no error and nothing to report; where it does
// not, it leaves the value as it found it. The well-formed documents take
// the fast way.
func TestUnmarshalStrictIsSigs(t *testing.T) {
	for i, doc := range strictDocuments {
		for _, newObj := range strictKinds {
			got, want := newObj(), newObj()
			if _, ok := got.(*lsv1alpha1.Execution); ok && strings.Contains(doc, `"spec":null`) {
				continue // ExecutionSpec's UnmarshalJSON panics on null either way; the loader leaves such a spec out
			}
			fast := fastjson.UnmarshalStrict([]byte(doc), got)
			strictErrs, err := sigsjson.UnmarshalStrict([]byte(doc), want)
			clean := err == nil && len(strictErrs) == 0
			switch {
			case fast && !clean:
				t.Errorf("document %d into %T: UnmarshalStrict decoded what sigs.k8s.io/json reports: %v %v", i, got, err, strictErrs)
			case fast && !reflect.DeepEqual(got, want):
				t.Errorf("document %d into %T:\ngot  %#v\nwant %#v", i, got, got, want)
			case !fast && !reflect.DeepEqual(got, newObj()):
				t.Errorf("document %d into %T: refused, but left %#v", i, got, got)
			}
			if i < 5 && kindOf(got) == kindOfDoc(doc) && !fast {
				t.Errorf("document %d into %T: refused a well-formed document", i, got)
			}
		}
	}
}

// TestUnmarshalCaseSensitiveIsSigs is TestUnmarshalStrictIsSigs for
// UnmarshalCaseSensitive, which skips unknown names, into a document's
// header as lscli's loader reads it first.
func TestUnmarshalCaseSensitiveIsSigs(t *testing.T) {
	type header struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	for i, doc := range strictDocuments {
		var got, want header
		fast := fastjson.UnmarshalCaseSensitive([]byte(doc), &got)
		err := sigsjson.UnmarshalCaseSensitivePreserveInts([]byte(doc), &want)
		switch {
		case fast && err != nil:
			t.Errorf("document %d: UnmarshalCaseSensitive decoded what sigs.k8s.io/json refuses: %v", i, err)
		case fast && got != want:
			t.Errorf("document %d: got %+v, want %+v", i, got, want)
		case !fast && got != (header{}):
			t.Errorf("document %d: refused, but left %+v", i, got)
		}
		if i < 5 && !fast {
			t.Errorf("document %d: refused a well-formed document", i)
		}
	}
	// An interface needs its integers kept apart: left to sigs.k8s.io/json.
	var anything map[string]any
	if fastjson.UnmarshalCaseSensitive([]byte(`{"a":1}`), &anything) {
		t.Error("decoded into an interface, whose integers sigs.k8s.io/json keeps as int64")
	}
}

// TestUnmarshalStrictIsSigsOnRandomObjects: random objects of every kind,
// encoded, decode through UnmarshalStrict as through sigs.k8s.io/json.
func TestUnmarshalStrictIsSigsOnRandomObjects(t *testing.T) {
	fill := randfill.NewWithSeed(11).NilChance(0.3).NumElements(0, 2).Funcs(
		func(tm *metav1.Time, c randfill.Continue) { *tm = metav1.Unix(c.Int63()%100000, 0) },
		func(r *runtime.RawExtension, c randfill.Continue) {
			r.Raw = [][]byte{nil, []byte(`{"k":1}`), []byte(`[1,"x",{"a":null}]`)}[c.Intn(3)]
		},
		func(a *lsv1alpha1.AnyJSON, c randfill.Continue) {
			*a = lsv1alpha1.NewAnyJSON([][]byte{[]byte(`{"k":1.5}`), []byte(`"s"`), []byte(`{"blueprint.yaml":"a: b\n"}`)}[c.Intn(3)])
		},
		func(m *json.RawMessage, c randfill.Continue) { *m = json.RawMessage(`{"r":[true]}`) },
		func(s *string, c randfill.Continue) { *s = []string{"", "a", "é<>", "x\ny"}[c.Intn(4)] },
		// The decoded form of a repository context, which JSON leaves out.
		func(m *map[string]any, c randfill.Continue) {},
		func(f *metav1.FieldsV1, c randfill.Continue) { f.Raw = []byte(`{"f:metadata":{}}`) },
	)
	kinds := strictKinds[:5] // a Context's repository context holds an interface, which UnmarshalStrict leaves alone
	compared := 0
	for i := range 600 {
		newObj := kinds[i%len(kinds)]
		src := newObj()
		fill.Fill(src)
		data, err := json.Marshal(src)
		if err != nil {
			t.Fatal(err)
		}
		got, want := newObj(), newObj()
		fast := fastjson.UnmarshalStrict(data, got)
		strictErrs, err := sigsjson.UnmarshalStrict(data, want)
		if err != nil || len(strictErrs) != 0 {
			continue // not what a loaded file gives; the documents above cover refusals
		}
		compared++
		if !fast {
			t.Errorf("%T %d: refused what sigs.k8s.io/json decodes: %s", src, i, data)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%T %d: %s\ngot  %#v\nwant %#v", src, i, data, got, want)
		}
	}
	if compared < 500 {
		t.Errorf("only %d of 600 random objects decode with sigs.k8s.io/json: the filler makes the wrong objects", compared)
	}
}

// FuzzUnmarshalStrict: whatever UnmarshalStrict decodes into an
// Installation, sigs.k8s.io/json decodes into the same value, with nothing
// to report.
func FuzzUnmarshalStrict(f *testing.F) {
	for _, doc := range strictDocuments {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got, want lsv1alpha1.Installation
		if !fastjson.UnmarshalStrict(data, &got) {
			return
		}
		strictErrs, err := sigsjson.UnmarshalStrict(data, &want)
		if err != nil || len(strictErrs) != 0 {
			t.Fatalf("decoded what sigs.k8s.io/json reports: %v %v", err, strictErrs)
		}
		if !reflect.DeepEqual(&got, &want) {
			t.Fatalf("got %#v\nwant %#v", &got, &want)
		}
	})
}

func kindOf(obj any) string { return reflect.TypeOf(obj).Elem().Name() }

func kindOfDoc(doc string) string {
	var h struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal([]byte(doc), &h)
	return strings.TrimSpace(h.Kind)
}
