package fakecluster

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	"github.com/lscli/lscli/internal/semantic"
)

// statusKinds are the kinds landscaperStatusEqual compares itself.
var statusKinds = []func() Object{
	func() Object { return &lsv1alpha1.Installation{} },
	func() Object { return &lsv1alpha1.Execution{} },
	func() Object { return &lsv1alpha1.DeployItem{} },
}

// statusOf returns the addressable status field of obj.
func statusOf(obj Object) reflect.Value {
	return structOf(obj).Field(infoOf(obj).status)
}

func statusFiller(seed int64, nilChance float64, minElems int) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(nilChance).NumElements(minElems, 2).Funcs(
		func(t *metav1.Time, c randfill.Continue) { *t = metav1.Unix(c.Int63()%3, 0) },
		func(r *runtime.RawExtension, c randfill.Continue) {
			r.Raw = [][]byte{nil, {}, []byte(`{"k":1}`), []byte(`{"k":2}`)}[c.Intn(4)]
		},
		func(s *string, c randfill.Continue) { *s = []string{"", "a", "b"}[c.Intn(3)] },
	)
}

// TestStatusEqualIsSemantic: for random statuses of the three kinds, equal
// ones, ones made from each other and ones apart, with nil and empty slices
// and times in other zones, landscaperStatusEqual says what semantic
// equality says.
func TestStatusEqualIsSemantic(t *testing.T) {
	fill := statusFiller(7, 0.3, 0)
	for i := range 3000 {
		newObj := statusKinds[i%len(statusKinds)]
		a, b := newObj(), newObj()
		fill.Fill(statusOf(a).Addr().Interface())
		switch i % 5 {
		case 0:
			fill.Fill(statusOf(b).Addr().Interface())
		case 1:
			b = a.DeepCopyObject().(Object)
		case 2:
			b = a.DeepCopyObject().(Object)
			swapNilAndEmpty(statusOf(b))
		default:
			b = a.DeepCopyObject().(Object)
			mutateLeaf(statusOf(b), i%53)
		}
		if i%5 == 0 {
			inZone(statusOf(b))
		}
		got, ok := landscaperStatusEqual(a, b)
		want := semantic.DeepEqual(statusOf(a).Addr().Interface(), statusOf(b).Addr().Interface())
		if !ok || got != want {
			t.Fatalf("%d, %T: landscaperStatusEqual %v (ok %v), semantic equality %v\n%+v\n%+v", i, a, got, ok, want,
				statusOf(a).Interface(), statusOf(b).Interface())
		}
	}
}

// TestStatusEqualSeesEveryField: a change to any one field of a status,
// however deep, makes it unequal, as semantic equality says; a field added
// to these types without a comparison fails here.
func TestStatusEqualSeesEveryField(t *testing.T) {
	fill := statusFiller(11, 0, 1)
	for _, newObj := range statusKinds {
		a := newObj()
		fill.Fill(statusOf(a).Addr().Interface())
		leaves := 0
		for leaf := 0; ; leaf++ {
			b := a.DeepCopyObject().(Object)
			if !mutateLeaf(statusOf(b), leaf) {
				break
			}
			leaves++
			want := semantic.DeepEqual(statusOf(a).Addr().Interface(), statusOf(b).Addr().Interface())
			if got, _ := landscaperStatusEqual(a, b); got != want || want {
				t.Errorf("%T, field %d changed: landscaperStatusEqual %v, semantic equality %v", a, leaf, got, want)
			}
		}
		if leaves < 10 {
			t.Errorf("%T: only %d fields changed; the walk is broken", a, leaves)
		}
	}
}

// mutateLeaf changes the n-th leaf (string, number, bool, time, bytes, or
// the length of a slice) reachable from v, in a fixed walk order, and
// reports whether there was one.
func mutateLeaf(v reflect.Value, n int) bool {
	count := 0
	var walk func(v reflect.Value) bool
	hit := func() bool { count++; return count-1 == n }
	walk = func(v reflect.Value) bool {
		switch v.Type() {
		case reflect.TypeFor[metav1.Time]():
			if hit() {
				tm := v.Addr().Interface().(*metav1.Time)
				*tm = metav1.NewTime(tm.Add(time.Second))
				return true
			}
			return false
		case reflect.TypeFor[[]byte]():
			if hit() {
				v.SetBytes(append(v.Bytes(), 'x'))
				return true
			}
			return false
		}
		switch v.Kind() {
		case reflect.String:
			if hit() {
				v.SetString(v.String() + "x")
				return true
			}
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if hit() {
				v.SetInt(v.Int() + 1)
				return true
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if hit() {
				v.SetUint(v.Uint() + 1)
				return true
			}
		case reflect.Float32, reflect.Float64:
			if hit() {
				v.SetFloat(v.Float() + 1)
				return true
			}
		case reflect.Map:
			if v.Type().Key().Kind() == reflect.String && hit() {
				if v.IsNil() {
					v.Set(reflect.MakeMap(v.Type()))
				}
				v.SetMapIndex(reflect.ValueOf("mutated").Convert(v.Type().Key()), reflect.New(v.Type().Elem()).Elem())
				return true
			}
		case reflect.Bool:
			if hit() {
				v.SetBool(!v.Bool())
				return true
			}
		case reflect.Pointer:
			if !v.IsNil() {
				return walk(v.Elem())
			}
			if hit() {
				v.Set(reflect.New(v.Type().Elem()))
				return true
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() && walk(v.Field(i)) {
					return true
				}
			}
		case reflect.Slice:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				// Raw bytes, which copies may share: replaced, never changed in place.
				if hit() {
					v.SetBytes(append(slices.Clone(v.Bytes()), 'x'))
					return true
				}
				return false
			}
			if hit() {
				v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
				return true
			}
			for i := range v.Len() {
				if walk(v.Index(i)) {
					return true
				}
			}
		case reflect.Interface:
			// runtime.RawExtension's Object: never set by the API server.
		default:
			panic(fmt.Sprintf("mutateLeaf: %s not handled", v.Type()))
		}
		return false
	}
	return walk(v)
}

// inZone moves the first time reachable from v to another zone, the same
// instant.
func inZone(v reflect.Value) {
	zone := time.FixedZone("x", 3600)
	var walk func(v reflect.Value) bool
	walk = func(v reflect.Value) bool {
		if v.Type() == reflect.TypeFor[metav1.Time]() {
			tm := v.Addr().Interface().(*metav1.Time)
			*tm = metav1.NewTime(tm.In(zone))
			return true
		}
		switch v.Kind() {
		case reflect.Pointer:
			return !v.IsNil() && walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() && walk(v.Field(i)) {
					return true
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				if walk(v.Index(i)) {
					return true
				}
			}
		}
		return false
	}
	walk(v)
}

// swapNilAndEmpty makes every nil slice reachable from v empty and every
// empty one nil, which semantic equality does not tell apart.
func swapNilAndEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			swapNilAndEmpty(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[metav1.Time]() {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				swapNilAndEmpty(v.Field(i))
			}
		}
	case reflect.Slice:
		switch {
		case v.IsNil():
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		case v.Len() == 0:
			v.Set(reflect.Zero(v.Type()))
		default:
			for i := range v.Len() {
				swapNilAndEmpty(v.Index(i))
			}
		}
	}
}
