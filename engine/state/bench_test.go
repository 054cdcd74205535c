package state

import (
	"os"
	"testing"
)

// BenchmarkSaveLoad saves and loads a landscape of 10,000 installations,
// 10,000 executions (3 deploy items each), 30,000 deploy items and 10,000
// data objects, with 10,000 timers and 240,000 events.
func BenchmarkSaveLoad(b *testing.B) {
	scheme := testScheme()
	snap := bigSnapshot(10000)
	d := New(b.TempDir())
	if err := d.Save(snap, scheme); err != nil {
		b.Fatal(err)
	}
	info, err := os.Stat(d.file(stateFileName))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Save", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(info.Size())
		for b.Loop() {
			if err := d.Save(snap, scheme); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Load", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(info.Size())
		for b.Loop() {
			got, err := d.Load(scheme)
			if err != nil {
				b.Fatal(err)
			}
			if len(got.Objects) != len(snap.Objects) {
				b.Fatalf("loaded %d objects, want %d", len(got.Objects), len(snap.Objects))
			}
		}
	})
}
