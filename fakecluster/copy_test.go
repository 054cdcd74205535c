package fakecluster

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	"github.com/lscli/lscli/internal/semantic"
)

// TestCopyObject: the copies that share raw JSON are equal to the original,
// and changing a copy (anything but the bytes of that JSON) leaves the
// original as it was.
func TestCopyObject(t *testing.T) {
	raw := lsv1alpha1.NewAnyJSON([]byte(`{"blueprint.yaml":"kind: Blueprint"}`))
	objs := []Object{
		&lsv1alpha1.Installation{
			ObjectMeta: metav1.ObjectMeta{Name: "i", Labels: map[string]string{"a": "b"}},
			Spec: lsv1alpha1.InstallationSpec{Context: "default",
				Blueprint: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: raw}},
				Imports:   lsv1alpha1.InstallationImports{Data: []lsv1alpha1.DataImport{{Name: "x", DataRef: "y"}}}},
			Status: lsv1alpha1.InstallationStatus{JobID: "j", LastError: &lsv1alpha1.Error{Message: "m"}},
		},
		&lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "d", Annotations: map[string]string{"k": "v"}}, Data: raw},
		&lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Name: "t"},
			Spec: lsv1alpha1.TargetSpec{Type: "x", Configuration: &raw, SecretRef: &lsv1alpha1.LocalSecretReference{Name: "s"}}},
	}
	for _, obj := range objs {
		want := obj.DeepCopyObject()
		cp := copyObject(obj)
		if !reflect.DeepEqual(cp, want) {
			t.Errorf("%T: copy %+v differs from %+v", obj, cp, want)
		}
		cp.SetName("changed")
		if l := cp.GetLabels(); l != nil {
			l["a"] = "changed"
		}
		switch c := cp.(type) {
		case *lsv1alpha1.Installation:
			c.Spec.Imports.Data[0].DataRef = "changed"
			c.Status.LastError.Message = "changed"
		case *lsv1alpha1.Target:
			c.Spec.SecretRef.Name = "changed"
		}
		if !reflect.DeepEqual(obj, want) {
			t.Errorf("%T: changing the copy changed the original: %+v", obj, obj)
		}
	}
}

// TestSetListItemsIsSetList: the lists setListItems fills hold what
// meta.SetList gives from copyObject's copies, and the copies share nothing
// that changes with the stored objects.
func TestSetListItemsIsSetList(t *testing.T) {
	raw := lsv1alpha1.NewAnyJSON([]byte(`{"k":"v"}`))
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: "ns", Labels: map[string]string{"a": "b"}}
	}
	cases := []struct {
		list  ObjectList
		items []Object
	}{
		{&lsv1alpha1.InstallationList{}, []Object{
			&lsv1alpha1.Installation{ObjectMeta: meta("a"), Spec: lsv1alpha1.InstallationSpec{Blueprint: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: raw}}}},
			&lsv1alpha1.Installation{ObjectMeta: meta("b"), Status: lsv1alpha1.InstallationStatus{JobID: "j"}}}},
		{&lsv1alpha1.ExecutionList{}, []Object{&lsv1alpha1.Execution{ObjectMeta: meta("e"), Spec: lsv1alpha1.ExecutionSpec{Context: "c"}}}},
		{&lsv1alpha1.DeployItemList{}, []Object{&lsv1alpha1.DeployItem{ObjectMeta: meta("d"), Spec: lsv1alpha1.DeployItemSpec{Type: "t"}}}},
		{&lsv1alpha1.DataObjectList{}, []Object{&lsv1alpha1.DataObject{ObjectMeta: meta("o"), Data: raw}}},
		{&lsv1alpha1.TargetList{}, []Object{&lsv1alpha1.Target{ObjectMeta: meta("t"), Spec: lsv1alpha1.TargetSpec{Configuration: &raw}}}},
		{&lsv1alpha1.InstallationList{}, nil},
	}
	for _, tc := range cases {
		want := tc.list.DeepCopyObject().(ObjectList)
		items := make([]runtime.Object, len(tc.items))
		for i, o := range tc.items {
			items[i] = copyObject(o)
		}
		if err := apimeta.SetList(want, items); err != nil {
			t.Fatal(err)
		}
		got := tc.list.DeepCopyObject().(ObjectList)
		if !setListItems(got, tc.items, false) {
			t.Fatalf("%T: not filled", got)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%T: %+v, want %+v", got, got, want)
		}
		shallow := tc.list.DeepCopyObject().(ObjectList)
		if !setListItems(shallow, tc.items, true) {
			t.Fatalf("%T: not filled shallowly", shallow)
		}
		if !reflect.DeepEqual(shallow, want) {
			t.Errorf("%T shallow: %+v, want %+v", shallow, shallow, want)
		}
		if len(tc.items) > 0 {
			gotItems, _ := apimeta.ExtractList(got)
			gotItems[0].(Object).GetLabels()["a"] = "changed"
			if tc.items[0].GetLabels()["a"] != "b" {
				t.Errorf("%T: a copy shares its labels with the stored object", got)
			}
			shallowItems, _ := apimeta.ExtractList(shallow)
			shallowItems[0].(Object).SetName("renamed")
			if tc.items[0].GetName() == "renamed" {
				t.Errorf("%T: a shallow copy is the stored object itself", shallow)
			}
		}
	}
	if setListItems(&corev1.SecretList{}, nil, false) || setListItems(&corev1.SecretList{}, nil, true) {
		t.Error("a SecretList was filled; it should take meta.SetList")
	}
}

// TestListUnsafeIsList: ListUnsafe gives the items List gives, for the kinds
// it copies shallowly and for the others.
func TestListUnsafeIsList(t *testing.T) {
	ctx := context.Background()
	c := New(Options{})
	for _, obj := range []Object{
		&lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "ns", Labels: map[string]string{"k": "v"}}, Data: lsv1alpha1.NewAnyJSON([]byte(`{"x":1}`))},
		&lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}},
		&lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "other"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "ns"}, Data: map[string][]byte{"k": []byte("v")}},
	} {
		if err := c.Create(ctx, obj); err != nil {
			t.Fatal(err)
		}
	}
	for _, list := range []ObjectList{&lsv1alpha1.DataObjectList{}, &corev1.SecretList{}} {
		want, got := list.DeepCopyObject().(ObjectList), list.DeepCopyObject().(ObjectList)
		if err := c.List(ctx, want, ListOptions{Namespace: "ns"}); err != nil {
			t.Fatal(err)
		}
		if err := c.ListUnsafe(ctx, got, ListOptions{Namespace: "ns"}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%T: ListUnsafe gave %+v, List %+v", list, got, want)
		}
	}
}

// TestChangedIsSemanticEquality: comparing fields through pointers to them
// gives semantic equality of the fields themselves, for random objects,
// equal ones and ones that differ in one field.
func TestChangedIsSemanticEquality(t *testing.T) {
	fill := objectFiller(3, 0.3, 0)
	for i := range 200 {
		a, b := &lsv1alpha1.Installation{}, &lsv1alpha1.Installation{}
		fill.Fill(a)
		if i%2 == 0 {
			a.DeepCopyInto(b)
			if i%4 == 0 {
				b.Status.JobID += "x"
				b.Labels = map[string]string{"l": fmt.Sprint(i)}
			}
		} else {
			fill.Fill(b)
		}
		if got, want := statusChanged(a, b), !semantic.DeepEqual(a.Status, b.Status); got != want {
			t.Fatalf("%d: statusChanged %v, semantic inequality %v", i, got, want)
		}
		if got, want := metaChanged(a, b), !semantic.DeepEqual(a.ObjectMeta, b.ObjectMeta); got != want {
			t.Fatalf("%d: metaChanged %v, semantic inequality %v", i, got, want)
		}
		if got, want := specChanged(a, b), !semantic.DeepEqual(a.Spec, b.Spec); got != want {
			t.Fatalf("%d: specChanged %v, semantic inequality %v", i, got, want)
		}
	}
	// Executions and deploy items, equal, with a job field changed, or apart.
	for i := range 200 {
		ea, eb := &lsv1alpha1.Execution{}, &lsv1alpha1.Execution{}
		da, db := &lsv1alpha1.DeployItem{}, &lsv1alpha1.DeployItem{}
		fill.Fill(ea)
		fill.Fill(da)
		ea.DeepCopyInto(eb)
		da.DeepCopyInto(db)
		switch i % 4 {
		case 0:
			eb.Status.JobIDFinished += "x"
			db.Status.Phase += "x"
		case 1:
			eb.Status.ObservedGeneration++
			db.Status.JobID += "x"
		case 2:
			fill.Fill(eb)
			fill.Fill(db)
		}
		if got, want := statusChanged(ea, eb), !semantic.DeepEqual(ea.Status, eb.Status); got != want {
			t.Fatalf("%d: execution statusChanged %v, semantic inequality %v", i, got, want)
		}
		if got, want := statusChanged(da, db), !semantic.DeepEqual(da.Status, db.Status); got != want {
			t.Fatalf("%d: deploy item statusChanged %v, semantic inequality %v", i, got, want)
		}
	}
}

// TestCopyObjectIntoIsCopy: copyObjectInto gives what copyObject gives,
// whatever dst held before, for random objects of the kinds it copies
// itself and of one it leaves to copyObject; changing dst's metadata
// afterwards leaves src as it was; and a type mismatch is an error.
func TestCopyObjectIntoIsCopy(t *testing.T) {
	fill := objectFiller(5, 0.2, 1)
	kinds := writtenKinds
	for i := range 300 {
		src, dst := kinds[i%len(kinds)](), kinds[i%len(kinds)]()
		fill.Fill(src)
		fill.Fill(dst)
		want := src.DeepCopyObject()
		if err := copyObjectInto(dst, src); err != nil {
			t.Fatalf("%T: %v", src, err)
		}
		if !reflect.DeepEqual(dst, copyObject(src)) {
			t.Fatalf("%T: copyObjectInto gave %+v, copyObject %+v", src, dst, copyObject(src))
		}
		for k := range dst.GetLabels() {
			dst.GetLabels()[k] = "changed"
		}
		for k := range dst.GetAnnotations() {
			dst.GetAnnotations()[k] = "changed"
		}
		if f := dst.GetFinalizers(); len(f) > 0 {
			f[0] = "changed"
		}
		if refs := dst.GetOwnerReferences(); len(refs) > 0 {
			refs[0].Name = "changed"
		}
		if !reflect.DeepEqual(src, want) {
			t.Fatalf("%T: changing the copy's metadata changed the original", src)
		}
	}
	if err := copyObjectInto(&lsv1alpha1.Installation{}, &lsv1alpha1.Execution{}); err == nil {
		t.Error("copying an Execution into an Installation: no error")
	}
	var nilInst *lsv1alpha1.Installation
	if err := copyObjectInto(nilInst, &lsv1alpha1.Installation{}); err == nil {
		t.Error("copying into a nil *Installation: no error")
	}
}

// objectFiller fills whole Landscaper and core objects at random: slices
// and maps of minElems to 2 elements, pointers nil by nilChance, times to
// the second, raw JSON that is valid, and typed objects (a component
// reference's repository context) whose raw JSON and decoded value agree, as
// they do when decoded.
func objectFiller(seed int64, nilChance float64, minElems int) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(nilChance).NumElements(minElems, 2).Funcs(
		func(t *metav1.Time, c randfill.Continue) { *t = metav1.Unix(c.Int63()%1e9, 0) },
		func(u *cdv2.UnstructuredTypedObject, c randfill.Continue) {
			if err := u.UnmarshalJSON(fmt.Appendf(nil, `{"type":"t","k":%d}`, c.Intn(9))); err != nil {
				panic(err)
			}
		},
		func(a *lsv1alpha1.AnyJSON, c randfill.Continue) { *a = lsv1alpha1.NewAnyJSON([]byte(`{"k":1}`)) },
		func(r *runtime.RawExtension, c randfill.Continue) { r.Raw = []byte(`{"k":2}`) },
		func(v *any, c randfill.Continue) { *v = c.String(0) },
	)
}
