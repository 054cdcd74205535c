package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/iostreams"
)

// FuzzConfig reads config files of any content through `lscli get`: a bad
// file is invalid input (exit 2), never a panic. The seed corpus is in
// testdata/fuzz/FuzzConfig.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		"seed: 7\nlimits: {fileSize: 1Mi, templateSteps: 1000, templateTime: 5s}\n",
		"deployers: {landscaper.gardener.cloud/helm: real}\nfake:\n  rules:\n  - match: {name: db}\n    reconcile: {duration: 2m}\n",
		"blueprints: {app: ./bp}\ncharts: {registry.example/app: ./charts/app}\n",
		"simulatedCluster:\n  rules:\n  - match: {kind: Deployment}\n    duration: 1m\n",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, config string) {
		p := filepath.Join(dir, "lscli.yaml")
		if err := os.WriteFile(p, []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		streams, _, _, errOut := iostreams.Test()
		code := Run(streams, []string{"get", "--config", p, "--state", filepath.Join(dir, "no-state")}, func(string) string { return "" })
		if code != action.ExitOK && code != action.ExitInvalid || strings.Contains(errOut.String(), "panicked") {
			t.Fatalf("exit %d:\n%s", code, errOut)
		}
	})
}
