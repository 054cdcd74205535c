package helm

import (
	"fmt"
	"reflect"
	"testing"

	"helm.sh/helm/v3/pkg/release"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// filled returns a value of type t with every exported field, map entry,
// slice element and pointer set, down to depth levels, so that a field helm
// adds to its release types is filled too.
func filled(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	if depth == 0 {
		return v
	}
	switch t.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(t.Elem()))
		v.Elem().Set(filled(t.Elem(), depth-1))
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() {
				v.Field(i).Set(filled(f.Type, depth-1))
			}
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(t))
		v.SetMapIndex(filled(t.Key(), depth-1), filled(t.Elem(), depth-1))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(t, 2, 2))
		v.Index(0).Set(filled(t.Elem(), depth-1))
		v.Index(1).Set(filled(t.Elem(), depth-1))
	case reflect.Interface:
		if t.NumMethod() == 0 { // a value of JSON, as in Config and Values
			v.Set(reflect.ValueOf(map[string]interface{}{"m": map[string]interface{}{"l": []interface{}{"s", 1.5, true}}}))
		}
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	}
	return v
}

// mutable collects where v keeps memory a change through it would reach:
// pointers, maps and the arrays of slices (the bytes of []byte apart, which
// are shared and must have no room to append into: those go to bytes).
func mutable(v reflect.Value, at map[uintptr]string, bytes map[uintptr]string, path string) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			at[v.Pointer()] = path
			mutable(v.Elem(), at, bytes, path)
		}
	case reflect.Interface:
		if !v.IsNil() {
			mutable(v.Elem(), at, bytes, path)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			mutable(v.Field(i), at, bytes, path+"."+v.Type().Field(i).Name)
		}
	case reflect.Map:
		if !v.IsNil() {
			at[v.Pointer()] = path
			for it := v.MapRange(); it.Next(); {
				mutable(it.Value(), at, bytes, fmt.Sprintf("%s[%v]", path, it.Key()))
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			bytes[v.Pointer()] = fmt.Sprintf("%s (cap %d, len %d)", path, v.Cap(), v.Len())
			return
		}
		at[v.Pointer()] = path
		for i := 0; i < v.Len(); i++ {
			mutable(v.Index(i), at, bytes, fmt.Sprintf("%s[%d]", path, i))
		}
	}
}

// TestCopyReleaseSharesNothing fills every field of a release (a field
// helm adds is filled too) and checks that its copy reaches none of the
// original's pointers, maps and slices, only the bytes of its files, with
// no room to append into them, and that it is equal to it.
func TestCopyReleaseSharesNothing(t *testing.T) {
	orig := filled(reflect.TypeOf(release.Release{}), 12).Addr().Interface().(*release.Release)
	orig.Info.Resources = nil // never in a record; copied object by object
	cp := copyRelease(orig)
	if !reflect.DeepEqual(orig, cp) {
		t.Fatalf("copy differs from the release")
	}
	origAt, origBytes := map[uintptr]string{}, map[uintptr]string{}
	mutable(reflect.ValueOf(orig), origAt, origBytes, "release")
	cpAt, cpBytes := map[uintptr]string{}, map[uintptr]string{}
	mutable(reflect.ValueOf(cp), cpAt, cpBytes, "release")
	if len(origAt) < 40 {
		t.Fatalf("the filled release has only %d places to look at", len(origAt))
	}
	for p, path := range cpAt {
		if o, ok := origAt[p]; ok {
			t.Errorf("the copy's %s is the release's %s", path, o)
		}
	}
	for _, path := range cpBytes {
		var c, l int
		if _, err := fmt.Sscanf(path[len(path)-len("(cap 1, len 1)"):], "(cap %d, len %d)", &c, &l); err != nil || c != l {
			t.Errorf("the copy's %s leaves room to append into shared bytes", path)
		}
	}
}

// TestRecordCacheHandsOutCopies checks that a record decoded through the
// cache equals the record decoded anew, also after helm changed the
// release the cache handed out before, and that a record that does not
// decode is an error each time.
func TestRecordCacheHandsOutCopies(t *testing.T) {
	rls := filled(reflect.TypeOf(release.Release{}), 12).Addr().Interface().(*release.Release)
	rls.Info.Resources = nil
	rls.Labels = nil
	data, err := encodeRelease(rls)
	if err != nil {
		t.Fatal(err)
	}
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "sh.helm.release.v1.r.v1",
		Labels: map[string]string{"owner": "helm", "team": "a"}}, Data: map[string][]byte{"release": []byte(data)}}
	want, _, err := decodeRecord(sec)
	if err != nil {
		t.Fatal(err)
	}
	want.Labels = map[string]string{"team": "a"}
	c := newRecordCache(1 << 20)
	decodes := 0
	get := func() *release.Release {
		got, err := c.get(sec.Data["release"], func() (*release.Release, int, error) { decodes++; return decodeRecord(sec) })
		if err != nil {
			t.Fatal(err)
		}
		got.Labels = map[string]string{"team": "a"}
		return got
	}
	for i := 0; i < 3; i++ {
		got := get()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read %d: the cached record differs from the record decoded anew", i)
		}
		// What helm does to the releases it reads.
		got.SetStatus(release.StatusSuperseded, "changed")
		got.Hooks[0].LastRun.Phase = release.HookPhaseFailed
		got.Config["s"].(map[string]interface{})["new"] = "x"
		got.Chart.Values["s"].(map[string]interface{})["m"] = nil
		got.Chart.Templates[0].Name = "other"
		got.Chart.Metadata.Dependencies[0].Enabled = false
	}
	if decodes != 1 {
		t.Errorf("decoded %d times, want once", decodes)
	}

	bad := &corev1.Secret{ObjectMeta: sec.ObjectMeta, Data: map[string][]byte{"release": []byte("H4sI!!")}}
	for i := 0; i < 2; i++ {
		if _, err := c.get(bad.Data["release"], func() (*release.Release, int, error) { return decodeRecord(bad) }); err == nil {
			t.Fatalf("read %d of a bad record: no error", i)
		}
	}
}

// TestRecordCacheHoldsAtMostMax fills a small cache past its size (of
// JSON, four bytes a record here): the least recently used records go
// first.
func TestRecordCacheHoldsAtMostMax(t *testing.T) {
	c := newRecordCache(10)
	size := 4
	decode := func() (*release.Release, int, error) { return &release.Release{Name: "r"}, size, nil }
	for _, d := range []string{"aaaa", "bbbb", "aaaa", "cccc"} {
		if _, err := c.get([]byte(d), decode); err != nil {
			t.Fatal(err)
		}
	}
	if c.size > 10 || len(c.byData) != 2 {
		t.Fatalf("size %d, %d records; want at most 10 bytes, 2 records", c.size, len(c.byData))
	}
	for _, d := range []string{"aaaa", "cccc"} {
		if _, ok := c.byData[d]; !ok {
			t.Errorf("record %q was dropped, want bbbb dropped", d)
		}
	}
	size = 11
	if _, err := c.get([]byte("eeee"), decode); err != nil || len(c.byData) != 2 {
		t.Fatalf("a record longer than the cache was kept (err %v)", err)
	}
}
