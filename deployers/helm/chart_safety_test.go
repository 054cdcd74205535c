//go:build unix

package helm

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
)

// TestLocalChartsAreConfined: a local chart is read through the policy: a
// template that links outside the working directory, or a named pipe in
// the chart, fails the load instead of reading the host or blocking.
func TestLocalChartsAreConfined(t *testing.T) {
	src, err := filepath.Abs("testdata/chart")
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.yaml")
	if err := os.WriteFile(secret, []byte("kind: Secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		add  func(templates string) error
		err  string
	}{
		{name: "link outside", add: func(dir string) error { return os.Symlink(secret, filepath.Join(dir, "x.yaml")) },
			err: "templates/x.yaml: it leads to "},
		{name: "named pipe", add: func(dir string) error { return syscall.Mkfifo(filepath.Join(dir, "x.yaml"), 0o644) },
			err: "templates/x.yaml: it is a named pipe (FIFO), not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if err := os.CopyFS("chart", os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			if err := tt.add(filepath.Join("chart", "templates")); err != nil {
				t.Fatal(err)
			}
			_, err := New(Options{}).loadChart(helmv1alpha1.Chart{Ref: "./chart"})
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err = %v, want %q", err, tt.err)
			}
		})
	}
}
