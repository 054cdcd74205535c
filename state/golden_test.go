package state

import (
	"os"
	"path/filepath"
	"testing"
)

// updateGolden reports whether golden files should be rewritten. It reads
// the environment while the test runs, so `LSCLI_UPDATE=1 go test` works.
func updateGolden() bool { return os.Getenv("LSCLI_UPDATE") != "" }

// TestSaveGolden pins the layout of state.json that doc.go describes.
func TestSaveGolden(t *testing.T) {
	golden, err := filepath.Abs(filepath.Join("testdata", "sample.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := tempDir(t) // changes the working directory
	if err := d.Save(sampleSnapshot(), testScheme()); err != nil {
		t.Fatal(err)
	}
	got := readState(t, d)
	if updateGolden() {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with LSCLI_UPDATE=1 to create it)", err)
	}
	if got != string(want) {
		t.Fatalf("state.json differs from %s (LSCLI_UPDATE=1 rewrites it):\n%s", golden, got)
	}
}
