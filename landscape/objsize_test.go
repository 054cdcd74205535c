package landscape

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadRefusesObjectsTooLargeForEtcd: an object of a landscape file
// whose JSON is larger than etcd stores in one write is a problem of that
// file and object, as a Landscaper cluster's API server refuses it; one
// just below the limit loads.
func TestLoadRefusesObjectsTooLargeForEtcd(t *testing.T) {
	dir := t.TempDir()
	object := func(name string, size int) string {
		return "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: DataObject\nmetadata:\n  name: " + name +
			"\n  namespace: demo\ndata: \"" + strings.Repeat("x", size) + "\"\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "big.yaml"), []byte(object("big", 1600<<10)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := (&Loader{}).Load(filepath.Join(dir, "big.yaml"))
	if err == nil || !strings.Contains(err.Error(), `big.yaml: document 1: DataObject "big": etcdserver: request is too large (the object is`) {
		t.Errorf("load of a 1.6 MB DataObject: error %v, want the file, the object and etcd's refusal", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fits.yaml"), []byte(object("fits", 1500<<10)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := (&Loader{}).Load(filepath.Join(dir, "fits.yaml")); err != nil {
		t.Errorf("load of a 1.5 MB DataObject: %v", err)
	}
}
