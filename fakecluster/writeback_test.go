package fakecluster

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
	"unsafe"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// writtenKinds are the kinds copyResultInto is tried on: the Landscaper
// kinds copyObjectInto copies itself, and one it does not.
var writtenKinds = []func() Object{
	func() Object { return &lsv1alpha1.Installation{} },
	func() Object { return &lsv1alpha1.Execution{} },
	func() Object { return &lsv1alpha1.DeployItem{} },
	func() Object { return &lsv1alpha1.DataObject{} },
	func() Object { return &lsv1alpha1.Target{} },
	func() Object { return &corev1.Secret{} },
}

// TestEqualApartIsDeepEqual: for random objects and copies of them that
// share nothing (deep copies, copyObject's copies, which share only raw
// JSON, each then changed in one leaf or with nil and empty swapped),
// equalApart says what reflect.DeepEqual says; for a shallow copy, which
// shares the maps and slices, it says false.
func TestEqualApartIsDeepEqual(t *testing.T) {
	fill := objectFiller(11, 0.2, 0)
	equal := 0
	for i := range 3000 {
		a := writtenKinds[i%len(writtenKinds)]()
		fill.Fill(a)
		var b Object
		switch i % 4 {
		case 0:
			b = a.DeepCopyObject().(Object)
		case 1:
			b = copyObject(a)
			mutateLeaf(structOf(b), i%41)
		case 2:
			b = a.DeepCopyObject().(Object)
			swapNilAndEmpty(structOf(b))
		default:
			b = reflect.New(structOf(a).Type()).Interface().(Object)
			structOf(b).Set(structOf(a))
			if equalApart(structOf(a), structOf(b)) || compiledApart(a, b) {
				t.Fatalf("%T: a shallow copy, which shares maps and slices, is equal and apart", a)
			}
			continue
		}
		want := reflect.DeepEqual(a, b)
		if got := equalApart(structOf(a), structOf(b)); got != want {
			t.Fatalf("%T, case %d: equalApart %v, reflect.DeepEqual %v:\n%+v\n%+v", a, i%4, got, want, a, b)
		}
		if got := compiledApart(a, b); got != want {
			t.Fatalf("%T, case %d: apartFuncFor %v, reflect.DeepEqual %v:\n%+v\n%+v", a, i%4, got, want, a, b)
		}
		if want {
			equal++
		}
	}
	if equal < 700 {
		t.Errorf("only %d of the pairs were equal: the test hardly tries equal ones", equal)
	}
}

// compiledApart compares two objects of one type with apartFuncFor.
func compiledApart(a, b Object) bool {
	return apartFuncFor(structOf(a).Type())(reflect.ValueOf(a).UnsafePointer(), reflect.ValueOf(b).UnsafePointer())
}

// node is a type that refers to itself, with a map and an interface, for
// apartFuncFor.
type node struct {
	Name  string
	Next  *node
	Kids  []node
	Attrs map[string]any
	Any   any
	Arr   [2]int16
	Flag  bool
	Ratio float32
	When  metav1.Time
}

// TestApartFuncForIsEqualApart: on a type that refers to itself (through a
// pointer and a slice) and holds maps, interfaces, arrays and small numbers,
// apartFuncFor says what equalApart says, for copies that are equal and
// apart, that differ in one place, and that share something.
func TestApartFuncForIsEqualApart(t *testing.T) {
	mk := func() *node {
		return &node{Name: "a", Next: &node{Name: "b", Kids: []node{{Name: "c", Attrs: map[string]any{"k": []any{1.0, "x"}}}}},
			Kids: []node{{Any: map[string]any{"z": nil}}, {Arr: [2]int16{1, -2}, Flag: true, Ratio: 0.5}}, Attrs: map[string]any{},
			When: metav1.Unix(1e9, 5)}
	}
	apart := apartFuncFor(reflect.TypeFor[node]())
	check := func(name string, a, b *node, want bool) {
		t.Helper()
		if got := equalApart(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()); got != want {
			t.Errorf("%s: equalApart %v, want %v", name, got, want)
		}
		if got := apart(unsafe.Pointer(a), unsafe.Pointer(b)); got != want {
			t.Errorf("%s: apartFuncFor %v, want %v", name, got, want)
		}
	}
	check("equal", mk(), mk(), true)
	changes := map[string]func(n *node){
		"name deep":      func(n *node) { n.Next.Kids[0].Name = "C" },
		"map value":      func(n *node) { n.Next.Kids[0].Attrs["k"] = []any{1.0, "y"} },
		"interface":      func(n *node) { n.Kids[0].Any = map[string]any{"z": 0.0} },
		"array":          func(n *node) { n.Kids[1].Arr[1] = 2 },
		"bool":           func(n *node) { n.Kids[1].Flag = false },
		"float":          func(n *node) { n.Kids[1].Ratio = 0.25 },
		"nil and empty":  func(n *node) { n.Attrs = nil },
		"pointer to nil": func(n *node) { n.Next = nil },
		"shorter":        func(n *node) { n.Kids = n.Kids[:1] },
		"time":           func(n *node) { n.When = metav1.NewTime(n.When.Add(time.Second)) },
		"time nanos":     func(n *node) { n.When = metav1.NewTime(n.When.Add(1)) },
		"time zone":      func(n *node) { n.When = metav1.NewTime(n.When.In(time.FixedZone("x", 3600))) },
	}
	for name, change := range changes {
		b := mk()
		change(b)
		check(name, mk(), b, false)
	}
	shared := mk()
	b := mk()
	b.Next = shared.Next
	check("shared pointer", shared, b, false)
	b = mk()
	b.Kids = shared.Kids
	check("shared slice", shared, b, false)
	b = mk()
	b.Attrs = shared.Attrs
	check("shared map", shared, b, false)
}

// TestObjectMetaFieldsAreKnown: every field of ObjectMeta is either one that
// setServerFields sets or one metaEqualApartButServerFields compares, so a
// field added to apimachinery cannot be left behind by a write's copy.
func TestObjectMetaFieldsAreKnown(t *testing.T) {
	set := []string{"Name", "GenerateName", "Namespace", "SelfLink", "UID", "ResourceVersion", "Generation", "CreationTimestamp"}
	compared := metaComparedFields
	var fields []string
	for f := range reflect.TypeFor[metav1.ObjectMeta]().Fields() {
		fields = append(fields, f.Name)
	}
	if want := append(slices.Clone(set), compared...); !sameSet(fields, want) {
		t.Fatalf("ObjectMeta has the fields %v; writeback.go knows %v", fields, want)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestCopyResultIntoIsCopy: whatever obj held (a copy of the result with
// other server fields, the same but sharing the result's maps, another
// object altogether), copyResultInto leaves it what copyObject(result)
// gives, and sharing nothing with result that a change could reach; for the
// first it sets only the server's fields.
func TestCopyResultIntoIsCopy(t *testing.T) {
	fill := objectFiller(13, 0.2, 1)
	fast := 0
	for i := range 600 {
		newObj := writtenKinds[i%len(writtenKinds)]
		result := newObj()
		fill.Fill(result)
		var obj Object
		switch i / len(writtenKinds) % 3 {
		case 0: // the object written, before the server set its fields
			obj = copyObject(result)
			obj.SetResourceVersion("older")
			obj.SetUID(types.UID("other"))
			obj.SetGeneration(result.GetGeneration() + 1)
			obj.SetCreationTimestamp(metav1.Time{})
			obj.GetObjectKind().SetGroupVersionKind(obj.GetObjectKind().GroupVersionKind().GroupKind().WithVersion("v0"))
		case 1: // a shallow copy of the stored object with a new resourceVersion
			obj = newObj()
			structOf(obj).Set(structOf(result))
			obj.SetResourceVersion("older")
		default:
			obj = newObj()
			fill.Fill(obj)
		}
		before := obj
		if setServerFields(copyObject(obj), result, false) {
			fast++
		}
		want := result.DeepCopyObject()
		if err := copyResultInto(obj, result, false); err != nil {
			t.Fatalf("%T: %v", result, err)
		}
		if obj != before {
			t.Fatal("copyResultInto replaced the object")
		}
		if !reflect.DeepEqual(obj, copyObject(result)) {
			t.Fatalf("%T: copyResultInto gave %+v, want %+v", result, obj, copyObject(result))
		}
		mutateLeaf(structOf(obj), i%29)
		for k := range obj.GetLabels() {
			obj.GetLabels()[k] = "changed"
		}
		if refs := obj.GetOwnerReferences(); len(refs) > 0 {
			refs[0].Name = "changed"
		}
		if !reflect.DeepEqual(result, want) {
			t.Fatalf("%T, case %d: changing the object written changed the result:\n%+v\n%+v", result, i/len(writtenKinds)%3, result, want)
		}
	}
	if fast < 150 {
		t.Errorf("copyResultInto set only the server's fields %d times; the test should make it do so 200 times", fast)
	}
	if err := copyResultInto(&lsv1alpha1.Installation{}, &lsv1alpha1.Execution{}, false); err == nil {
		t.Error("copying an Execution into an Installation: no error")
	}
}

// TestMetaApartSeesSharing: two ObjectMetas equal in every field are not
// equal and apart when any one of their maps, slices or pointers is the
// same, so that a write never leaves the caller's object sharing one with
// the store.
func TestMetaApartSeesSharing(t *testing.T) {
	fill := objectFiller(17, 0, 1)
	share := []func(a, b *metav1.ObjectMeta){
		func(a, b *metav1.ObjectMeta) { a.Labels = b.Labels },
		func(a, b *metav1.ObjectMeta) { a.Annotations = b.Annotations },
		func(a, b *metav1.ObjectMeta) { a.Finalizers = b.Finalizers },
		func(a, b *metav1.ObjectMeta) { a.OwnerReferences = b.OwnerReferences },
		func(a, b *metav1.ObjectMeta) { a.OwnerReferences[0].Controller = b.OwnerReferences[0].Controller },
		func(a, b *metav1.ObjectMeta) { a.DeletionTimestamp = b.DeletionTimestamp },
		func(a, b *metav1.ObjectMeta) { a.DeletionGracePeriodSeconds = b.DeletionGracePeriodSeconds },
		func(a, b *metav1.ObjectMeta) { a.ManagedFields = b.ManagedFields },
	}
	for i := range 200 {
		var b metav1.ObjectMeta
		fill.Fill(&b)
		a := b.DeepCopy()
		if !metaEqualApartButServerFields(a, &b) {
			t.Fatalf("a deep copy of %+v is not equal and apart", b)
		}
		share[i%len(share)](a, &b)
		if metaEqualApartButServerFields(a, &b) {
			t.Fatalf("sharing %d of %+v: still equal and apart", i%len(share), b)
		}
	}
}

// TestWrittenObjectIsStored: after Create, UpdateStatus and Update of random
// objects of the kinds written most (with generateName, deletion fields and
// metadata the server overrides), the object written is what a Get returns,
// and changing it leaves the stored object as it was.
func TestWrittenObjectIsStored(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCluster(t)
	fill := objectFiller(19, 0.2, 1)
	check := func(step string, obj Object) {
		t.Helper()
		stored := reflect.New(structOf(obj).Type()).Interface().(Object)
		if err := c.Get(ctx, types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}, stored); err != nil {
			t.Fatalf("%s %T: %v", step, obj, err)
		}
		if !reflect.DeepEqual(obj, stored) {
			t.Fatalf("%s %T: the caller holds\n%+v\nstored is\n%+v", step, obj, obj, stored)
		}
		want := stored.DeepCopyObject()
		mutateLeaf(structOf(obj), 3)
		for k := range obj.GetLabels() {
			obj.GetLabels()[k] = "changed"
		}
		if err := c.Get(ctx, types.NamespacedName{Namespace: stored.GetNamespace(), Name: stored.GetName()}, stored); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(stored, want) {
			t.Fatalf("%s %T: changing the caller's object changed the stored one", step, obj)
		}
	}
	for i := range 300 {
		obj := writtenKinds[i%len(writtenKinds)]()
		fill.Fill(obj)
		obj.SetResourceVersion("")
		obj.SetNamespace("ns")
		obj.SetName(fmt.Sprintf("o-%d", i))
		obj.SetManagedFields(nil)
		// The API server refuses random labels (see validateMeta).
		obj.SetLabels(map[string]string{"app": fmt.Sprintf("v%d", i), "example.com/tier": "web"})
		if i%7 == 0 {
			obj.SetName("")
			obj.SetGenerateName("gen-")
		}
		if err := c.Create(ctx, obj); err != nil {
			t.Fatalf("create %T: %v", obj, err)
		}
		check("create", obj)
		if infoOf(obj).status < 0 {
			continue
		}
		stored := obj.DeepCopyObject().(Object)
		fill.Fill(statusOf(stored).Addr().Interface())
		if i%3 == 0 {
			stored.SetLabels(map[string]string{"ignored": "by a status update"})
		}
		if err := c.UpdateStatus(ctx, stored); err != nil {
			t.Fatalf("update status of %T: %v", obj, err)
		}
		check("update status", stored)
		stored.SetAnnotations(map[string]string{"a": fmt.Sprint(i)})
		fill.Fill(statusOf(stored).Addr().Interface()) // not written by an update
		if err := c.Update(ctx, stored); err != nil {
			t.Fatalf("update %T: %v", obj, err)
		}
		check("update", stored)
	}
}
