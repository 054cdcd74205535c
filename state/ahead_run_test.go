package state_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/internal/benchland"
	"github.com/lscli/lscli/state"
)

// TestReconcileSavesTheSameWithAhead reconciles a landscape of chained
// installations, then one of its roots changed, once with the lines of
// the objects encoded ahead at a pace that encodes most of them during the
// run, once with none encoded ahead: the state files are the same, byte
// for byte. Run it with -race: the lines are encoded while the run loop
// writes.
func TestReconcileSavesTheSameWithAhead(t *testing.T) {
	dir := t.TempDir()
	if err := benchland.Chained.Write(dir, 4); err != nil {
		t.Fatal(err)
	}
	round := 0
	reconcile := func(t *testing.T, statePath string, batch, delay int) []byte {
		t.Helper()
		defer state.SetAheadPace(batch, delay)()
		a := action.NewReconcile(&action.Configuration{StatePath: statePath, Seed: 7})
		a.Paths = []string{dir}
		used := state.AheadLinesUsed()
		res, err := a.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode() != action.ExitOK || res.NewJobs != 4-3*round {
			t.Fatalf("exit %d, %d new jobs", res.ExitCode(), res.NewJobs)
		}
		if used = state.AheadLinesUsed() - used; (batch < 1<<30) != (used > 0) {
			t.Fatalf("pace %d: %d lines encoded ahead were saved", batch, used)
		}
		data, err := os.ReadFile(filepath.Join(statePath, "state.json"))
		if err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(statePath)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != "state.json" && e.Name() != "lock" {
				t.Errorf("the state folder keeps %s", e.Name())
			}
		}
		return data
	}
	ahead, plain := filepath.Join(t.TempDir(), "ahead"), filepath.Join(t.TempDir(), "plain")
	for ; round < 2; round++ {
		got := reconcile(t, ahead, 16, 1)
		want := reconcile(t, plain, 1<<30, 1)
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: the state saved with lines encoded ahead differs from the one saved without", round)
		}
		// The second round re-reconciles with the first root changed.
		name := filepath.Join(dir, "part-0000.yaml")
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		const marker = "blueprint.yaml: |\n"
		at := bytes.Index(data, []byte(marker))
		if at < 0 {
			t.Fatal("no blueprint.yaml in the landscape")
		}
		indent := at - bytes.LastIndexByte(data[:at], '\n') - 1 + 2
		changed := append(bytes.Repeat([]byte(" "), indent), "# changed\n"...)
		data = slices.Insert(data, at+len(marker), changed...)
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
