package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/linediff"
	"github.com/lscli/lscli/state"
)

// storedKinds are the kinds of the scheme a state file can hold: those
// with object metadata, lists and options left out.
func storedKinds(scheme *runtime.Scheme) []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for gvk := range scheme.AllKnownTypes() {
		if strings.HasSuffix(gvk.Kind, "List") || strings.HasSuffix(gvk.Kind, "Options") || gvk.Version == runtime.APIVersionInternal {
			continue
		}
		obj, err := scheme.New(gvk)
		if err != nil {
			continue
		}
		if _, ok := obj.(fakecluster.Object); ok {
			out = append(out, gvk)
		}
	}
	slices.SortFunc(out, func(a, b schema.GroupVersionKind) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// validJSON is a random JSON value of a few kinds, as AnyJSON and raw
// extensions hold them.
func validJSON(c randfill.Continue) []byte {
	v := map[string]any{
		"s": c.String(0), "n": c.Int63() % 1000, "f": float64(c.Int63()%1000) / 8,
		"l": []any{c.String(0), true, nil}, "o": map[string]any{"<&>": c.String(0)},
	}
	b, _ := json.Marshal(v)
	return b
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// fillFuncs keep random values to those an API server stores: times to
// seconds in a sane range, raw JSON that is JSON, quantities and
// int-or-strings of their canonical forms.
func fillFuncs() []any {
	when := func(c randfill.Continue) time.Time {
		return time.Unix(c.Int63()%4_000_000_000, 0).UTC()
	}
	return []any{
		func(t *metav1.Time, c randfill.Continue) { *t = metav1.NewTime(when(c)) },
		func(t *metav1.MicroTime, c randfill.Continue) {
			*t = metav1.NewMicroTime(when(c).Add(time.Duration(c.Int63()%1e6) * time.Microsecond))
		},
		func(q *resource.Quantity, c randfill.Continue) {
			*q = *resource.NewQuantity(c.Int63()%100000, resource.DecimalSI)
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(c.Int31())
			} else {
				*v = intstr.FromString(c.String(0))
			}
		},
		func(r *runtime.RawExtension, c randfill.Continue) { *r = runtime.RawExtension{Raw: validJSON(c)} },
		func(a *lsv1alpha1.AnyJSON, c randfill.Continue) { *a = lsv1alpha1.NewAnyJSON(validJSON(c)) },
		func(m *json.RawMessage, c randfill.Continue) { *m = validJSON(c) },
		func(f *metav1.FieldsV1, c randfill.Continue) { f.Raw = []byte(`{"f:metadata":{}}`) },
		// Repository contexts come from JSON (files, or lscli's own
		// maps); an empty one from Go code would encode as null.
		func(u *cdv2.UnstructuredTypedObject, c randfill.Continue) {
			_ = json.Unmarshal([]byte(`{"type":"local","baseUrl":`+string(mustJSON(c.String(0)))+`}`), u)
		},
		func(v *any, c randfill.Continue) {
			var x any
			_ = json.Unmarshal(validJSON(c), &x)
			*v = x
		},
	}
}

// randomObjects returns perKind random objects of every kind a state file
// can hold, each with a name, uid and resourceVersion, and a namespace
// where the kind has one.
func randomObjects(scheme *runtime.Scheme, fill *randfill.Filler, perKind int) []fakecluster.Object {
	var objs []fakecluster.Object
	for _, gvk := range storedKinds(scheme) {
		for i := range perKind {
			ro, _ := scheme.New(gvk)
			obj := ro.(fakecluster.Object)
			fill.Fill(obj)
			if ex, ok := obj.(*lsv1alpha1.Execution); ok {
				ex.Spec.DeployItemsCompressed = nil // stored in clear
			}
			obj.GetObjectKind().SetGroupVersionKind(gvk)
			obj.SetName(fmt.Sprintf("%s-%d", strings.ToLower(gvk.Kind), i))
			obj.SetNamespace("ns")
			if fakecluster.ClusterScoped(gvk.GroupKind()) {
				obj.SetNamespace("")
			}
			obj.SetUID(types.UID(fmt.Sprintf("uid-%s-%d", gvk.Kind, i)))
			obj.SetResourceVersion(fmt.Sprint(len(objs) + 1))
			objs = append(objs, obj)
		}
	}
	return objs
}

// TestListStoredIsList checks what ListStored rests on: for random objects
// of every kind a state file can hold, re-indenting their stored lines (or
// converting them to YAML) gives the bytes of decoding the lines and
// listing the objects, as JSON and as YAML.
func TestListStoredIsList(t *testing.T) {
	scheme := fakecluster.NewScheme()
	objs := randomObjects(scheme, randfill.NewWithSeed(1).NilChance(0.2).NumElements(0, 3).Funcs(fillFuncs()...), 8)
	c := fakecluster.New(fakecluster.Options{Scheme: scheme})
	if err := c.Restore(objs); err != nil {
		t.Fatal(err)
	}
	d := state.New(t.TempDir())
	if err := d.Save(&state.Snapshot{Objects: c.Objects()}, scheme); err != nil {
		t.Fatal(err)
	}
	v, ok, err := d.OpenView(scheme, true)
	if err != nil || !ok {
		t.Fatalf("OpenView: ok %v, err %v", ok, err)
	}
	decoded, err := v.AllObjects()
	if err != nil {
		t.Fatal(err)
	}
	stored, ok := v.Stored(nil)
	if !ok {
		t.Fatal("a kind of the scheme is not known")
	}
	for _, format := range []string{FormatJSON, FormatYAML} {
		var want, got bytes.Buffer
		if err := List(decoded, format, &want); err != nil {
			t.Fatal(err)
		}
		if err := ListStored(stored, format, &got); err != nil {
			t.Fatal(err)
		}
		if d := linediff.Describe("List", want.String(), "ListStored", got.String()); d != "" {
			t.Fatalf("-o %s, %d objects of %d kinds: %s", format, len(objs), len(storedKinds(scheme)), d)
		}
	}
	if n := len(storedKinds(scheme)); n < 25 {
		t.Errorf("only %d kinds tried", n)
	}
}

// yamlStrings are strings that test YAML's quoting, folding and block
// scalars.
var yamlStrings = []string{
	"", "yes", "1.0", "null", "- x", "a: b", "# c", "'q'", `"d"`, "tab\there", " lead", "trail ",
	strings.Repeat("long words over the line width ", 6),
	"multi\nline\n", "multi\nline without end", "ünïcödé ☃", "\u2028sep",
	strings.Repeat("x", 130),
}

// TestYAMLListStreams: the streamed YAML List, each item converted on its
// own, is byte for byte sigs.k8s.io/yaml's conversion of the whole List,
// for random objects of every kind with strings YAML must quote, fold or
// write as block scalars, and for lists longer than a round.
func TestYAMLListStreams(t *testing.T) {
	funcs := append(fillFuncs(), func(s *string, c randfill.Continue) { *s = yamlStrings[c.Intn(len(yamlStrings))] })
	objs := randomObjects(fakecluster.NewScheme(), randfill.NewWithSeed(7).NilChance(0.2).NumElements(0, 3).Funcs(funcs...), 3)
	numbers := `{"n":[0,-0,1,-1,1.5,1.5e3,1e21,1E-7,0.1,9007199254740993,9223372036854775807,9223372036854775808,` +
		`18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809,1e400,123456789012345678901234567890]}`
	objs = append(objs, &lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "numbers", Namespace: "ns"},
		Data: lsv1alpha1.NewAnyJSON([]byte(numbers))})
	for len(objs) < listRound+5 {
		objs = append(objs, &lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("d%04d", len(objs)), Namespace: "ns"},
			Data: lsv1alpha1.NewAnyJSON(mustJSON(map[string]string{"s": yamlStrings[len(objs)%len(yamlStrings)]}))})
	}
	for _, n := range []int{0, 1, len(objs)} {
		var got bytes.Buffer
		if err := List(objs[:n], FormatYAML, &got); err != nil {
			t.Fatal(err)
		}
		want := wholeList(t, objs[:n], FormatYAML)
		if d := linediff.Describe("whole", want.String(), "streamed", got.String()); d != "" {
			t.Fatalf("%d objects: %s", n, d)
		}
	}
}

// TestMarshalItemIsMarshalItemCopy: marshalItem's in-place swap of
// TypeMeta gives the bytes of encoding the object without it and joining
// apiVersion and kind in front, for random objects of every kind a state
// can hold, with TypeMeta set, cleared and only half set.
func TestMarshalItemIsMarshalItemCopy(t *testing.T) {
	scheme := fakecluster.NewScheme()
	objs := randomObjects(scheme, randfill.NewWithSeed(3).NilChance(0.2).NumElements(0, 3).Funcs(fillFuncs()...), 6)
	swapped := 0
	for i, o := range objs {
		switch i % 3 {
		case 1:
			o.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		case 2:
			gvk := o.GetObjectKind().GroupVersionKind()
			o.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{Kind: gvk.Kind})
		}
		got, err := marshalItem(o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := marshalItemCopy(o)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%T %s: marshalItem\n%s\nmarshalItemCopy\n%s", o, o.GetName(), got, want)
		}
		if gvk := o.GetObjectKind().GroupVersionKind(); gvk.Version != "" && swapTypeMeta(slices.Clone(got), gvk.GroupVersion().String(), gvk.Kind, compactLayout) {
			t.Fatalf("%T %s: the item still starts with kind", o, o.GetName())
		}
		if i%3 == 0 {
			swapped++
		}
	}
	if swapped < 50 {
		t.Errorf("only %d objects took the in-place way", swapped)
	}
}

// TestSwapTypeMetaNeedsTheWholeMember: swapTypeMeta leaves alone an item
// whose kind or apiVersion only starts like the one asked for.
func TestSwapTypeMetaNeedsTheWholeMember(t *testing.T) {
	for _, item := range []string{
		`{"kind":"Installation","apiVersion":"landscaper.gardener.cloud/v1alpha1x"}`,
		`{"kind":"Installation","apiVersion":"landscaper.gardener.cloud/v1alpha1"`,
		`{"kind":"InstallationX","apiVersion":"landscaper.gardener.cloud/v1alpha1"}`,
		`{"apiVersion":"landscaper.gardener.cloud/v1alpha1","kind":"Installation"}`,
	} {
		b := []byte(item)
		if swapTypeMeta(b, "landscaper.gardener.cloud/v1alpha1", "Installation", compactLayout) || string(b) != item {
			t.Errorf("%s: swapped to %s", item, b)
		}
	}
	b := []byte(`{"kind":"Installation","apiVersion":"landscaper.gardener.cloud/v1alpha1","metadata":{}}`)
	if !swapTypeMeta(b, "landscaper.gardener.cloud/v1alpha1", "Installation", compactLayout) ||
		string(b) != `{"apiVersion":"landscaper.gardener.cloud/v1alpha1","kind":"Installation","metadata":{}}` {
		t.Errorf("not swapped: %s", b)
	}
}

// TestAppendIndentedItemIsAppendListItem: encoding an item indented in one
// pass gives the bytes of indenting marshalItem's compact item, after what
// the buffer held, for random objects of every kind a state can hold (with
// strings JSON escapes), and refuses what it cannot swap.
func TestAppendIndentedItemIsAppendListItem(t *testing.T) {
	funcs := append(fillFuncs(), func(s *string, c randfill.Continue) {
		*s = []string{"", "<&>", "\u2028", "é", "tab\t", `"q"\`, "\x01", string([]byte{0xff})}[c.Intn(8)]
	})
	objs := randomObjects(fakecluster.NewScheme(), randfill.NewWithSeed(5).NilChance(0.2).NumElements(0, 3).Funcs(funcs...), 6)
	one := 0
	for i, o := range objs {
		if i%4 == 3 {
			o.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
		}
		item, err := marshalItem(o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := appendListItem([]byte("before"), item, FormatJSON)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendIndentedItem([]byte("before"), o)
		_, _, _, swappable := swappable(o)
		if ok != swappable {
			t.Fatalf("%T %s: appendIndentedItem ok %v, swappable %v", o, o.GetName(), ok, swappable)
		}
		if !ok {
			if string(got) != "before" {
				t.Fatalf("%T %s: refused, but changed the buffer to %q", o, o.GetName(), got)
			}
			continue
		}
		one++
		if !bytes.Equal(got, want) {
			t.Fatalf("%T %s:\n%s", o, o.GetName(), linediff.Describe("appendListItem", string(want), "appendIndentedItem", string(got)))
		}
	}
	if one < 100 {
		t.Errorf("only %d objects encoded in one pass", one)
	}
}
