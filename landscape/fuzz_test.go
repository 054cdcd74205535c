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
	// Each kind whose spec has a decoder of its own, or none at all.
	f.Add([]byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Execution\nmetadata: {name: e}\nspec:\n  deployItems: [{name: a, type: t, config: {}}]\n"))
	f.Add([]byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: DeployItem\nmetadata: {name: d}\nspec: {type: t, timeout: 5m}\n"))
	f.Add([]byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: DataObject\nmetadata: {name: d}\ndata: {a: 1}\n"))
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
