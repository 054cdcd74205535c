package action_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lscli/lscli/action"
)

// writeFiles writes name → content under a new folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const missingComponent = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: app, namespace: test}
spec:
  componentDescriptor:
    ref:
      repositoryContext: {type: ociRegistry, baseUrl: registry.example.com/c}
      componentName: example.com/nowhere
      version: 1.0.0
  blueprint:
    ref: {resourceName: blueprint}
`

// TestComponentExitCodes: a component version that is in no local source
// fails the installation in reconcile (exit 3) and is invalid input for
// render (exit 2); a folder of *.yaml.tpl templates only is invalid input.
func TestComponentExitCodes(t *testing.T) {
	land := writeFiles(t, map[string]string{"installation.yaml": missingComponent})
	rec := action.NewReconcile(actionConfigFixture(t))
	rec.Paths = []string{land}
	res, err := rec.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := res.ExitCode(); got != action.ExitFailed {
		t.Errorf("reconcile: exit %d, want %d", got, action.ExitFailed)
	}
	ren := action.NewRender(actionConfigFixture(t))
	ren.Paths = []string{land}
	rres, err := ren.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := rres.ExitCode(); got != action.ExitInvalid || len(rres.Problems) != 1 {
		t.Errorf("render: exit %d, problems %v; want %d", got, rres.Problems, action.ExitInvalid)
	}
	tour := writeFiles(t, map[string]string{"installation/installation.yaml.tpl": "namespace: ${namespace}\n"})
	cfg := actionConfigFixture(t)
	rec = action.NewReconcile(cfg)
	rec.Paths = []string{tour}
	if _, err := rec.Run(context.Background()); action.ExitCodeOf(err) != action.ExitInvalid {
		t.Errorf("templates only: err %v, want exit %d", err, action.ExitInvalid)
	}
	if _, err := os.Stat(cfg.StatePath); !os.IsNotExist(err) {
		t.Errorf("templates only: the state was written (%v)", err)
	}
}
