package landscape

import (
	"errors"
	"testing"
	"testing/fstest"
)

// FuzzLoad reads one landscape file of any content: Load returns objects
// or a *LoadError, never panics. The seed corpus is in
// testdata/fuzz/FuzzLoad (see docs/testing.md).
func FuzzLoad(f *testing.F) {
	f.Add([]byte(obj("landscaper.gardener.cloud/v1alpha1", "Target", "t")))
	f.Add([]byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Installation\nmetadata: {name: a}\nspec:\n  blueprint: {ref: {resourceName: x}}\n---\n"))
	f.Add([]byte("a: &a [1, 2]\nb: [*a, *a]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := &Loader{FS: fstest.MapFS{"landscape.yaml": {Data: data}}, MaxYAMLNodes: 100_000}
		ls, err := l.Load("landscape.yaml")
		var le *LoadError
		switch {
		case err == nil && ls == nil:
			t.Fatal("no landscape and no error")
		case err != nil && (!errors.As(err, &le) || len(le.Problems) == 0):
			t.Fatalf("error %T without problems: %v", err, err)
		}
	})
}
