package state

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// TestSaveLeavesAFileThatHoldsTheSnapshot: saving what was loaded, changed
// in nothing, leaves the state file as it is (the same file, not a copy
// renamed over it), and still removes what killed saves left behind.
func TestSaveLeavesAFileThatHoldsTheSnapshot(t *testing.T) {
	d := tempDir(t)
	savedInStoreOrder(t, d, bigSnapshot(5))
	loaded, err := d.Load(testScheme())
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(d.file(stateFileName))
	if err != nil {
		t.Fatal(err)
	}
	content := readState(t, d)
	stale := d.file(tempPrefix + "4242")
	if err := os.WriteFile(stale, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(d.file(stateFileName))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) || readState(t, d) != content {
		t.Error("the state file was written again, though it held the snapshot")
	}
	if d.copiedBytes != 0 || d.reusedLines != len(loaded.Objects) || d.reusedEvents != len(loaded.Events) {
		t.Errorf("copied %d bytes, reused %d object and %d event lines; want none copied, all reused",
			d.copiedBytes, d.reusedLines, d.reusedEvents)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("a temporary file of a killed save is left")
	}
}

// TestSaveWritesAnyChange: whatever part of the snapshot changed since it
// was loaded, the file is written again, and holds what a save into a new
// folder writes.
func TestSaveWritesAnyChange(t *testing.T) {
	changes := map[string]func(s *Snapshot){
		"seed":   func(s *Snapshot) { s.Seed++ },
		"random": func(s *Snapshot) { s.Rand = append(slices.Clone(s.Rand[:len(s.Rand)-1]), 'x') },
		"clock":  func(s *Snapshot) { s.Clock = s.Clock.Add(time.Nanosecond) },
		"timer": func(s *Snapshot) {
			s.Timers = slices.Clone(s.Timers)
			s.Timers[1].Due = s.Timers[1].Due.Add(time.Second)
		},
		"one timer more": func(s *Snapshot) {
			s.Timers = append(slices.Clone(s.Timers), reconcile.Timer{Controller: "installation", Namespace: "default", Name: "x", Due: epoch})
		},
		"component roots": func(s *Snapshot) { s.ComponentRoots = []string{"/landscape"} },
		"config file":     func(s *Snapshot) { s.ConfigFile = "/landscape/lscli.yaml" },
		"unserved types":  func(s *Snapshot) { s.UnservedTypes = []string{"example.com/custom"} },
		"clusters": func(s *Snapshot) {
			s.Clusters = []ClusterObject{{Cluster: "default/t", Object: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`)}}
		},
		"an event recorded": func(s *Snapshot) {
			s.Recorded = [][]Event{{{Time: epoch, Kind: "Installation", Namespace: "default", Name: "inst-0", Type: EventAnnotated}}}
		},
		"an event changed": func(s *Snapshot) {
			s.Events = slices.Clone(s.Events)
			s.Events[len(s.Events)-1].Message = "other"
		},
		"an object changed": func(s *Snapshot) {
			s.Objects = slices.Clone(s.Objects)
			obj := s.Objects[2].DeepCopyObject().(fakecluster.Object)
			obj.SetLabels(map[string]string{"changed": "yes"})
			obj.SetResourceVersion("999")
			s.Objects[2] = obj
		},
		"an object removed and one added": func(s *Snapshot) {
			s.Objects = slices.Clone(s.Objects)
			added := s.Objects[2].DeepCopyObject().(fakecluster.Object)
			added.SetName(added.GetName() + "-z")
			added.SetUID("uid-added")
			s.Objects = slices.Insert(slices.Delete(s.Objects, 2, 3), 2, added)
		},
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			d := tempDir(t)
			savedInStoreOrder(t, d, bigSnapshot(3))
			loaded, err := d.Load(testScheme())
			if err != nil {
				t.Fatal(err)
			}
			before := readState(t, d)
			change(loaded)
			if err := d.Save(loaded, testScheme()); err != nil {
				t.Fatal(err)
			}
			if readState(t, d) == before {
				t.Fatal("the change was not saved")
			}
			sameAsFreshSave(t, d, loaded)
		})
	}
}

// TestComparerComparesByPlace: a comparer passes only the bytes the file
// has where they are written, and a range of the file only where it is.
func TestComparerComparesByPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	other, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	c := &comparer{f: f, size: 10}
	if _, err := c.Write([]byte("012")); err != nil {
		t.Fatalf("the file's own bytes: %v", err)
	}
	if _, err := c.copyRange(f, 3, 4); err != nil || c.at != 7 {
		t.Fatalf("a range where it is: %v, at %d", err, c.at)
	}
	for name, step := range map[string]func(c *comparer) error{
		"other bytes":                  func(c *comparer) error { _, err := c.Write([]byte("x")); return err },
		"bytes beyond the end":         func(c *comparer) error { _, err := c.Write([]byte("7890")); return err },
		"a range from elsewhere":       func(c *comparer) error { _, err := c.copyRange(f, 6, 1); return err },
		"a range of another open file": func(c *comparer) error { _, err := c.copyRange(other, 7, 1); return err },
		"a range beyond the end":       func(c *comparer) error { _, err := c.copyRange(f, 7, 4); return err },
	} {
		probe := *c
		if err := step(&probe); err != errDiffers {
			t.Errorf("%s: %v, want errDiffers", name, err)
		}
	}
}

// TestSaveWritesAFileWithMoreAfterIt: a file that holds the snapshot and
// more after it (a line added at its end) is written again.
func TestSaveWritesAFileWithMoreAfterIt(t *testing.T) {
	d := tempDir(t)
	savedInStoreOrder(t, d, bigSnapshot(2))
	writeState(t, d, readState(t, d)+"\n")
	loaded, err := d.Load(testScheme())
	if err != nil {
		t.Fatal(err)
	}
	if d.previous == nil {
		t.Skip("a file with an empty last line is not in Save's layout any more")
	}
	if err := d.Save(loaded, testScheme()); err != nil {
		t.Fatal(err)
	}
	sameAsFreshSave(t, d, loaded)
}
