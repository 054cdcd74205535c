package cmd_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/state"
)

// checkStoredStates checks, for every state file a script left under dir,
// that `get -o json` and `-o yaml` give the same bytes from the stored
// lines as from the decoded objects (see output.ListStored), and that a
// View reads every state Save writes: the scripts' states are real
// simulations of every feature. A state a View does not read (written by
// hand, or by an older lscli) is loaded and saved again first.
func checkStoredStates(t testscript.T, dir string) {
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "state.json" {
			return nil
		}
		scheme := fakecluster.NewScheme()
		v, ok, err := state.New(filepath.Dir(path)).OpenView(scheme, true)
		if err != nil {
			return nil
		}
		if !ok {
			snap, err := state.New(filepath.Dir(path)).Load(scheme)
			if err != nil {
				return nil // a broken state on purpose
			}
			resaved, err := os.MkdirTemp("", "lscli-resaved-")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(resaved)
			if err := state.New(resaved).Save(snap, scheme); err != nil {
				t.Fatal("save ", path, " again: ", err)
			}
			if v, ok, err = state.New(resaved).OpenView(scheme, true); err != nil || !ok {
				t.Fatal("a View does not read the state Save wrote for ", path, " (err ", err, ")")
			}
		}
		decoded, err := v.AllObjects()
		if err != nil {
			return nil
		}
		stored, ok := v.Stored(nil)
		if !ok {
			return nil
		}
		for _, format := range []string{output.FormatJSON, output.FormatYAML} {
			var want, got bytes.Buffer
			if err := output.List(decoded, format, &want); err != nil {
				return nil
			}
			if err := output.ListStored(stored, format, &got); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatal("get -o ", format, " of ", path, " from the stored lines differs from the decoded objects (err ", err, ")")
			}
		}
		return nil
	})
}
