package simcluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestImmutableFields writes each of immutableCases on a simulated cluster
// and compares the answers with testdata/immutable.golden, which
// TestRealClusterImmutableFields checks against kube-apiserver (the same
// answers, uids aside). LSCLI_UPDATE=1 rewrites the golden file.
func TestImmutableFields(t *testing.T) {
	var b strings.Builder
	for i, c := range immutableCases {
		c = named(c, i)
		f := immutableFixture(t)
		got := uids.ReplaceAllString(outcome(writeCase(t, f.c, "imm", c)), "UID")
		if got == "" {
			got = "passes"
		}
		b.WriteString("## " + c.name + " (" + c.method + ")\n" + got + "\n\n")
	}
	path := filepath.Join("testdata", "immutable.golden")
	if os.Getenv("LSCLI_UPDATE") != "" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("answers differ from %s (LSCLI_UPDATE=1 rewrites it):\n%s", path, b.String())
	}
}

// TestImmutableRefusedKeepsObject checks that a refused update stores
// nothing: the Deployment keeps its selector and resourceVersion.
func TestImmutableRefusedKeepsObject(t *testing.T) {
	f := immutableFixture(t)
	c := immutableCase{name: "selector", create: deployA, update: deployB, method: "apply"}
	if err := writeCase(t, f.c, "imm", c); err == nil {
		t.Fatal("selector change passed")
	}
	got := f.get("apps/v1", "Deployment", "imm", "web")
	sel, _, _ := unstructured.NestedString(got.Object, "spec", "selector", "matchLabels", "app")
	if sel != "a" {
		t.Errorf("selector app = %q, want a", sel)
	}
}
