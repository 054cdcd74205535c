package cmd_test

import (
	"bytes"
	"io/fs"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/state"
)

// checkStoredStates checks, for every state file a script left under dir,
// that `get -o json` gives the same bytes from the stored lines as from
// the decoded objects (see output.ListStored): the scripts' states are
// real simulations of every feature.
func checkStoredStates(t testscript.T, dir string) {
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "state.json" {
			return nil
		}
		scheme := fakecluster.NewScheme()
		v, ok, err := state.New(filepath.Dir(path)).OpenView(scheme, true)
		if err != nil || !ok {
			return nil // not a state a View reads; get decodes it
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
