package state

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lscli/lscli/fakecluster"
)

// TestAheadSavesTheSameBytes stores the objects of a snapshot in an Ahead,
// some of them again as newer versions (one after its first line was made,
// one too late for a line of its own), and checks that the file saved with
// the Ahead's lines is the file saved without, byte for byte, that lines
// were made and used, and that a line of an older version was not used.
func TestAheadSavesTheSameBytes(t *testing.T) {
	oldBatch, oldDelay := aheadBatch, aheadDelay
	aheadBatch, aheadDelay = 8, 2
	t.Cleanup(func() { aheadBatch, aheadDelay = oldBatch, oldDelay })
	scheme := testScheme()
	snap := bigSnapshot(30)
	snap.Objects = withTypeMeta(t, scheme, snap.Objects)

	d := tempDir(t)
	if err := os.MkdirAll(d.dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	a := d.NewAhead(scheme)
	if a == nil {
		t.Fatal("no Ahead in a writable folder")
	}
	newer := func(i int) {
		obj := snap.Objects[i].DeepCopyObject().(fakecluster.Object)
		obj.SetLabels(map[string]string{"version": fmt.Sprint(i)})
		obj.SetResourceVersion(fmt.Sprint(1000 + i))
		snap.Objects[i] = obj
		a.Stored(obj)
	}
	for _, obj := range snap.Objects {
		a.Stored(obj)
	}
	early, late := 3, 5
	newer(early)
	for range 4 * aheadBatch { // padding, so that the newer version of early gets its line
		a.Stored(snap.Objects[len(snap.Objects)-1])
	}
	catchUp(a)
	newer(late)
	a.Stop()
	stale := a.objects[keyOfObject(snap.Objects[late])]
	if stale.obj == nil || stale.obj == snap.Objects[late] {
		t.Fatalf("want a line of the older version of object %d only, have %+v", late, stale)
	}
	if l := a.objects[keyOfObject(snap.Objects[early])]; l.obj != snap.Objects[early] {
		t.Fatalf("want a line of the newer version of object %d", early)
	}
	used := 0
	liner := a.objectLiner(snap.Objects)
	for i := range snap.Objects {
		if _, ok := liner(i, nil); ok {
			used++
		}
	}
	if used < len(snap.Objects)/2 {
		t.Fatalf("lines for %d of %d objects, want most", used, len(snap.Objects))
	}

	snap.Ahead = a
	if err := d.Save(snap, scheme); err != nil {
		t.Fatal(err)
	}
	got := readState(t, d)
	a.Close()

	plain := New(filepath.Join(t.TempDir(), "plain"))
	snap.Ahead = nil
	if err := plain.Save(snap, scheme); err != nil {
		t.Fatal(err)
	}
	if want := readState(t, plain); !bytes.Equal([]byte(got), []byte(want)) {
		t.Fatalf("saved with an Ahead:\n%s\nwithout:\n%s", got, want)
	}
	if names := listDir(t, d); len(names) != 1 || names[0] != stateFileName {
		t.Fatalf("the state folder holds %v, want only %s", names, stateFileName)
	}
}

// TestAheadStopsWithWorkLeft stops an Ahead whose goroutine has batches
// queued, twice, and closes it: nothing blocks, and objects stored after
// Stop are ignored.
func TestAheadStopsWithWorkLeft(t *testing.T) {
	oldBatch := aheadBatch
	aheadBatch = 1
	t.Cleanup(func() { aheadBatch = oldBatch })
	scheme := testScheme()
	d := New(t.TempDir())
	a := d.NewAhead(scheme)
	objs := withTypeMeta(t, scheme, bigSnapshot(40).Objects)
	for _, obj := range objs {
		a.Stored(obj)
	}
	a.Stop()
	a.Stop()
	a.Stored(objs[0])
	a.Close()
	var nilAhead *Ahead
	nilAhead.Stop()
	nilAhead.Close()
	if nilAhead.objectLiner(objs) != nil {
		t.Fatal("a nil Ahead has lines")
	}
}

// catchUp sends a's pending objects to its goroutine and waits until it
// has done everything sent to it.
func catchUp(a *Ahead) {
	a.mu.Lock()
	if len(a.pending) > 0 {
		a.work <- aheadWork{objects: a.pending}
		a.pending = nil
	}
	done := make(chan struct{})
	a.work <- aheadWork{caughtUp: done}
	a.mu.Unlock()
	<-done
}
