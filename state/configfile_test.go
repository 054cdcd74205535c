package state

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSavedConfigFile: the config file a state was saved with is read from
// the first line alone; no state, a state saved without one, and a file
// laid out by hand (one JSON document) name none.
func TestSavedConfigFile(t *testing.T) {
	scheme := testScheme()
	d := tempDir(t)
	if got := d.SavedConfigFile(); got != "" {
		t.Errorf("no state: %q", got)
	}
	snap := sampleSnapshot()
	snap.ConfigFile = "/land/a b/lscli.yaml"
	if err := d.Save(snap, scheme); err != nil {
		t.Fatal(err)
	}
	if got := d.SavedConfigFile(); got != snap.ConfigFile {
		t.Errorf("saved with %q: read %q", snap.ConfigFile, got)
	}
	snap.ConfigFile = ""
	if err := d.Save(snap, scheme); err != nil {
		t.Fatal(err)
	}
	if got := d.SavedConfigFile(); got != "" {
		t.Errorf("saved without a config file: read %q", got)
	}
	doc := `{
  "version": 1, "seed": 1, "rand": null, "clock": "2025-01-01T00:00:00Z", "configFile": "/x/lscli.yaml",
  "timers": [], "events": [], "objects": []
}
`
	if err := os.WriteFile(filepath.Join(d.Path, stateFileName), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := d.SavedConfigFile(); got != "" {
		t.Errorf("a file laid out by hand: read %q", got)
	}
}
