package landscape

import (
	"strings"
	"testing"

	"github.com/lscli/lscli/internal/safefs"
)

const stdinDataObject = "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: DataObject\nmetadata: {name: a, namespace: x}\ndata: 1\n"

func TestLoadStdin(t *testing.T) {
	l := &Loader{Stdin: strings.NewReader(stdinDataObject)}
	ls, err := l.Load(StdinPath, StdinPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls.Objects) != 1 || ls.Objects[0].File != StdinName || ls.Objects[0].Object.GetName() != "a" {
		t.Fatalf("objects = %+v, want DataObject a of %s once", ls.Objects, StdinName)
	}
}

func TestLoadStdinProblems(t *testing.T) {
	for name, tc := range map[string]struct {
		loader *Loader
		want   string
	}{
		"no stdin":  {&Loader{}, "<stdin>: standard input cannot be read here"},
		"too large": {&Loader{Stdin: strings.NewReader(stdinDataObject), Policy: safefs.NewPolicy(10)}, "<stdin>: standard input is larger than limits.fileSize (10)"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := tc.loader.Load(StdinPath)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Load(-) = %v, want an error with %q", err, tc.want)
			}
		})
	}
}
