package state

import (
	"os"
	"slices"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/fakecluster"
)

// TestSavedObjectsAreStored: after a Save, SavedObjects gives what a View
// of the file gives (kind, namespace, name and the very JSON of each
// object, in file order), whether Save encoded every line, copied
// unchanged lines from the file it replaced, or left a file that held the
// snapshot already; and nothing when there was no Save since the last
// Load, or the file changed after it.
func TestSavedObjectsAreStored(t *testing.T) {
	d := tempDir(t)
	loaded := savedInStoreOrder(t, d, bigSnapshot(40))
	check := func(step string, wantOK bool) {
		t.Helper()
		got, ok, err := d.SavedObjects()
		if err != nil || ok != wantOK {
			t.Fatalf("%s: SavedObjects ok %v, err %v; want ok %v", step, ok, err, wantOK)
		}
		if !ok {
			return
		}
		want, ok := openView(t, d).Stored(nil)
		if !ok {
			t.Fatalf("%s: the View has a kind the scheme does not know", step)
		}
		if !slices.EqualFunc(got, want, func(a, b StoredObject) bool {
			return a.Kind == b.Kind && a.Namespace == b.Namespace && a.Name == b.Name && string(a.JSON) == string(b.JSON)
		}) || len(got) != len(loaded.Objects) {
			t.Fatalf("%s: SavedObjects differs from the View's Stored (%d and %d objects)", step, len(got), len(want))
		}
	}
	check("after a Load", false)

	// Every line encoded: a Save into a folder of its own.
	fresh := New(t.TempDir()) // not tempDir, whose folder is d's
	if err := fresh.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	got, ok, err := fresh.SavedObjects()
	want, _ := openView(t, fresh).Stored(nil)
	if err != nil || !ok || !slices.EqualFunc(got, want, func(a, b StoredObject) bool { return string(a.JSON) == string(b.JSON) && a.Name == b.Name }) {
		t.Fatalf("a Save into a new folder: ok %v, err %v, %d objects against %d", ok, err, len(got), len(want))
	}

	// Unchanged: the file is left as it is.
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	if d.copiedBytes != 0 || d.reusedLines != len(loaded.Objects) {
		t.Fatalf("the unchanged save wrote the file (copied %d bytes, reused %d lines of %d)", d.copiedBytes, d.reusedLines, len(loaded.Objects))
	}
	check("a Save that left the file as it was", true)

	// One object changed: the others' lines copied as ranges.
	loaded, err = d.Load(testScheme())
	if err != nil {
		t.Fatal(err)
	}
	changed := slices.Clone(loaded.Objects)
	at := len(changed) / 2
	obj := changed[at].DeepCopyObject().(fakecluster.Object)
	obj.SetResourceVersion("9999")
	obj.SetLabels(map[string]string{"changed": "yes"})
	changed[at] = obj
	loaded.Objects = changed
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	if d.copiedBytes == 0 {
		t.Fatal("the save copied no lines")
	}
	check("a Save that copied unchanged lines", true)

	// The file changed after the Save: another size, or a line not where
	// Save put it.
	content := []byte(readState(t, d))
	if err := os.WriteFile(d.file(stateFileName), append(slices.Clone(content), '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	check("a file longer than Save left it", false)
	content[d.saved.spans[at].off] = ' '
	if err := os.WriteFile(d.file(stateFileName), content, 0o600); err != nil {
		t.Fatal(err)
	}
	check("a file with a line not where Save put it", false)
}

// TestLoadExecutionWithNullSpec: an Execution whose spec a hand edit made
// null loads as an Execution without a spec, as lscli's loader and the API
// server read one, by Load and by a View; Landscaper's own decoding of the
// spec panics on it.
func TestLoadExecutionWithNullSpec(t *testing.T) {
	d := tempDir(t)
	savedInStoreOrder(t, d, bigSnapshot(2))
	content := readState(t, d)
	lines := strings.Split(content, "\n")
	edited := 0
	for i, l := range lines {
		if strings.HasPrefix(l, `{"kind":"Execution"`) && edited == 0 {
			start, end := strings.Index(l, `"spec":`), strings.Index(l, `,"status":`)
			lines[i] = l[:start] + `"spec" : null` + l[end:]
			edited++
		}
	}
	if edited != 1 {
		t.Fatal("no Execution in the state")
	}
	writeState(t, d, strings.Join(lines, "\n"))
	loaded, err := d.Load(testScheme())
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var execs []*lsv1alpha1.Execution
	for _, o := range loaded.Objects {
		if e, ok := o.(*lsv1alpha1.Execution); ok {
			execs = append(execs, e)
		}
	}
	if len(execs) != 2 || (len(execs[0].Spec.DeployItems) != 0) == (len(execs[1].Spec.DeployItems) != 0) {
		t.Fatalf("want two Executions, one without a spec: %d", len(execs))
	}
	if _, err := openView(t, d).AllObjects(); err != nil {
		t.Errorf("a View's AllObjects: %v", err)
	}
}

// TestLoadExecutionWithNullSpecAndAnotherError: an Execution whose spec is
// null and that does not decode for another reason is an error naming the
// line, not a crash.
func TestLoadExecutionWithNullSpecAndAnotherError(t *testing.T) {
	d := tempDir(t)
	savedInStoreOrder(t, d, bigSnapshot(1))
	lines := strings.Split(readState(t, d), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, `{"kind":"Execution"`) {
			start := strings.Index(l, `"spec":`)
			lines[i] = l[:start] + `"spec":null,"status":{"phase":7}` + l[strings.LastIndex(l, "}"):]
		}
	}
	writeState(t, d, strings.Join(lines, "\n"))
	_, err := d.Load(testScheme())
	requireErrorContains(t, err, "line ", "Execution default/inst-0", "cannot unmarshal number")
}
