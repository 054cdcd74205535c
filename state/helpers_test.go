package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/fakecluster"
)

// equal compares snapshots: instants by value (a loaded metav1.Time is in
// the local zone), nil and empty slices and maps alike.
var equal = conversion.EqualitiesOrDie(
	func(a, b metav1.Time) bool { return a.Equal(&b) },
	func(a, b time.Time) bool { return a.Equal(b) },
)

// withTypeMeta returns deep copies of objs with apiVersion and kind set, as
// Load returns them.
func withTypeMeta(t *testing.T, scheme *runtime.Scheme, objs []fakecluster.Object) []fakecluster.Object {
	t.Helper()
	out := make([]fakecluster.Object, len(objs))
	for i, obj := range objs {
		cp := obj.DeepCopyObject().(fakecluster.Object)
		gvks, _, err := scheme.ObjectKinds(cp)
		if err != nil {
			t.Fatal(err)
		}
		cp.GetObjectKind().SetGroupVersionKind(gvks[0])
		out[i] = cp
	}
	return out
}

// kindOf returns the kind scheme registers for obj's type.
func kindOf(t *testing.T, scheme *runtime.Scheme, obj runtime.Object) string {
	t.Helper()
	gvks, _, err := scheme.ObjectKinds(obj)
	if err != nil {
		t.Fatal(err)
	}
	return gvks[0].Kind
}

// requireEqual fails with both snapshots' JSON when they differ.
func requireEqual(t *testing.T, want, got *Snapshot) {
	t.Helper()
	if equal.DeepEqual(want, got) {
		return
	}
	for i := range max(len(want.Objects), len(got.Objects)) {
		if i >= len(want.Objects) || i >= len(got.Objects) || !equal.DeepEqual(want.Objects[i], got.Objects[i]) {
			t.Fatalf("object %d differs:\nwant %s\ngot  %s", i, toJSON(t, at(want.Objects, i)), toJSON(t, at(got.Objects, i)))
		}
	}
	want.Objects, got.Objects = nil, nil
	t.Fatalf("snapshot differs:\nwant %s\ngot  %s", toJSON(t, want), toJSON(t, got))
}

func at(objs []fakecluster.Object, i int) any {
	if i < len(objs) {
		return objs[i]
	}
	return nil
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tempDir returns a state folder in a fresh temporary directory, which is
// also made the working directory, so messages show the default ".lscli".
func tempDir(t *testing.T) *Dir {
	t.Helper()
	t.Chdir(t.TempDir())
	return New("")
}

// writeState writes a state file by hand.
func writeState(t *testing.T, d *Dir, content string) {
	t.Helper()
	if err := os.MkdirAll(d.dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.file(stateFileName), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// readState returns the state file's text.
func readState(t *testing.T, d *Dir) string {
	t.Helper()
	b, err := os.ReadFile(d.file(stateFileName))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// listDir returns the names in the state folder.
func listDir(t *testing.T, d *Dir) []string {
	t.Helper()
	entries, err := os.ReadDir(d.dir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// requireErrorContains fails unless err's message contains every part.
func requireErrorContains(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error containing %q, got nil", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not contain %q", err, p)
		}
	}
}

// faultyTemp is a temporary file that fails on the first operation named in
// fail ("write", "sync" or "close") after writing failAfter bytes. failed
// counts the writes that failed.
type faultyTemp struct {
	*os.File
	fail      string
	failAfter int
	written   int
	failed    int
}

func (f *faultyTemp) Write(p []byte) (int, error) {
	if f.fail == "write" && f.written+len(p) > f.failAfter {
		n, _ := f.File.Write(p[:f.failAfter-f.written])
		f.written += n
		f.failed++
		return n, &os.PathError{Op: "write", Path: filepath.ToSlash(f.Name()), Err: errDiskFull}
	}
	n, err := f.File.Write(p)
	f.written += n
	return n, err
}

func (f *faultyTemp) Sync() error {
	if f.fail == "sync" {
		return errDiskFull
	}
	return f.File.Sync()
}

var errDiskFull = errorString("no space left on device")

type errorString string

func (e errorString) Error() string { return string(e) }
