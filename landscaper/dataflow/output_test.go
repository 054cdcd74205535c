package dataflow

import (
	"errors"
	"strings"
	"testing"

	"github.com/lscli/lscli/landscaper/template"
)

// A rendered output that does not parse says where, with the lines around
// it: gardener/gardener-extension-provider-aws's blueprint renders
// "machineImages:" with its list at the key's indent when the list is empty.
func TestDecodeOutputYAMLErrorShowsLines(t *testing.T) {
	out := "deployItems:\n- name: x\n  config:\n    machineImages:\n    []\n    kubernetes: {}\n"
	err := decodeOutput(kindDeploy, []byte(out), &map[string]any{})
	if err == nil {
		t.Fatal("no error")
	}
	if want := "output line 6: the rendered output is not valid YAML: could not find expected ':'"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	var te *template.Error
	if !errors.As(err, &te) {
		t.Fatalf("%T is no *template.Error", err)
	}
	if s := te.Snippet(); !strings.Contains(s, "    5 |     []\n    6 |     kubernetes: {}\n") {
		t.Errorf("snippet = %q", s)
	}
}
