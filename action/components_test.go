package action

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The component roots of a landscape are its folders, new ones first, then
// the saved ones that exist; folders inside others are left out.
func TestComponentRoots(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a/sub", "b", "c"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "b", "installation.yaml")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := componentRoots([]string{filepath.Join(dir, "a", "sub"), file},
		[]string{filepath.Join(dir, "a"), filepath.Join(dir, "gone"), filepath.Join(dir, "c"), filepath.Join(dir, "b")})
	want := []string{filepath.Join(dir, "b"), filepath.Join(dir, "a"), filepath.Join(dir, "c")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("roots\n%v\nwant\n%v", got, want)
	}
}
