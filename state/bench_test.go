package state

import (
	"os"
	"testing"
)

// BenchmarkSaveLoad saves and loads a landscape of 10,000 installations,
// 10,000 executions (3 deploy items each), 30,000 deploy items and 10,000
// data objects, with 10,000 timers and 240,000 events: a 116 MB state file.
//
// Besides wall time it reports cpu-ns/op, the processor time of all
// goroutines, which is steadier than wall time on a busy machine; on an idle
// one, wall time is about cpu-ns/op divided by the processors used.
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
		measure(b, info.Size(), func() {
			if err := d.Save(snap, scheme); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("Load", func(b *testing.B) {
		measure(b, info.Size(), func() {
			got, err := d.Load(scheme)
			if err != nil {
				b.Fatal(err)
			}
			if len(got.Objects) != len(snap.Objects) {
				b.Fatalf("loaded %d objects, want %d", len(got.Objects), len(snap.Objects))
			}
		})
	})
}

// measure runs op in a benchmark loop and reports allocations, throughput
// and processor time per operation.
func measure(b *testing.B, size int64, op func()) {
	b.ReportAllocs()
	b.SetBytes(size)
	start, ok := processCPU()
	n := 0
	for b.Loop() {
		op()
		n++
	}
	if end, _ := processCPU(); ok && n > 0 {
		b.ReportMetric(float64(end-start)/float64(n), "cpu-ns/op")
	}
}
