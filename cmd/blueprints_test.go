package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lscli/lscli/engine/blueprint"
)

func TestParseBlueprints(t *testing.T) {
	tests := []struct {
		name, config string
		want         map[string]string
		err          string
	}{
		{name: "none", config: "seed: 2\n"},
		{name: "relative to the config file", config: "blueprints:\n  app: blueprints/app\n  example.com/c/db: /abs/db\n",
			want: map[string]string{"app": filepath.Join("conf", "blueprints", "app"), "example.com/c/db": "/abs/db"}},
		{name: "keys keep case and dots", config: "blueprints:\n  GitHub.com/Acme/App: x\n",
			want: map[string]string{"GitHub.com/Acme/App": filepath.Join("conf", "x")}},
		{name: "not a map", config: "blueprints: [a]\n", err: "config conf/lscli.yaml: blueprints must be a map from a blueprint resource name to a folder"},
		{name: "not a folder", config: "blueprints:\n  app: 3\n", err: `config conf/lscli.yaml: blueprints["app"] must be a folder (a string), got 3`},
		{name: "not yaml", config: "blueprints: [\n", err: "read config conf/lscli.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := parseBlueprints([]byte(tt.config), filepath.Join("conf", "lscli.yaml"))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || exitCode(err) != ExitInvalid {
					t.Fatalf("err = %v (exit %d), want %q", err, exitCode(err), tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if r != nil {
					t.Errorf("resolver = %v, want none", r)
				}
				return
			}
			f := r.(*blueprint.Folders)
			for k, v := range tt.want {
				if f.Paths[k] != v {
					t.Errorf("Paths[%q] = %q, want %q", k, f.Paths[k], v)
				}
			}
		})
	}
}
