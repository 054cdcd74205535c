package cmd_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd"
	"github.com/lscli/lscli/cmd/iostreams"
)

// writeLandscape writes n root installations (100 per file), each rendering
// three mock deploy items, into dir.
func writeLandscape(b *testing.B, dir string, n int) {
	b.Helper()
	var file strings.Builder
	for i := range n {
		fmt.Fprintf(&file, `---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: inst-%05d, namespace: bench}
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
          deployExecutions:
          - name: main
            type: GoTemplate
            template: |
              deployItems:
              - {name: a, type: landscaper.gardener.cloud/mock, config: {}}
              - {name: b, type: landscaper.gardener.cloud/mock, dependsOn: [a], config: {export: {n: 1}}}
              - {name: c, type: landscaper.gardener.cloud/mock, dependsOn: [b], config: {}}
`, i)
		if (i+1)%100 == 0 || i == n-1 {
			name := filepath.Join(dir, fmt.Sprintf("part-%04d.yaml", i/100))
			if err := os.WriteFile(name, []byte(file.String()), 0o644); err != nil {
				b.Fatal(err)
			}
			file.Reset()
		}
	}
}

// BenchmarkReconcileCommand runs `lscli reconcile DIR -o json` on a generated
// landscape into a new state: load and validate the files, run every job to
// its end, save the state, print the List. Figures are in docs/performance.md.
func BenchmarkReconcileCommand(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("installations=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			writeLandscape(b, dir, n)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				streams, _, _, _ := iostreams.Test()
				state := filepath.Join(b.TempDir(), fmt.Sprintf("state-%d", i))
				code := cmd.Run(streams, []string{"reconcile", dir, "--state", state, "-o", "json"}, nil)
				if code != action.ExitOK {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
