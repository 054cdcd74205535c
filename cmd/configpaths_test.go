package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lscli/lscli/action"
)

func TestPathMaps(t *testing.T) {
	tests := []struct {
		name   string
		pm     pathMap
		config string
		want   map[string]string
		err    string
	}{
		{name: "none", pm: blueprintsConfig, config: "seed: 2\n"},
		{name: "relative to the config file", pm: blueprintsConfig, config: "blueprints:\n  app: blueprints/app\n  example.com/c/db: /abs/db\n",
			want: map[string]string{"app": filepath.Join("conf", "blueprints", "app"), "example.com/c/db": "/abs/db"}},
		{name: "keys keep case and dots", pm: chartsConfig, config: "charts:\n  Registry.example/Charts/App:1.0: x.tgz\n",
			want: map[string]string{"Registry.example/Charts/App:1.0": filepath.Join("conf", "x.tgz")}},
		{name: "not a map", pm: blueprintsConfig, config: "blueprints: [a]\n",
			err: "config conf/lscli.yaml: blueprints must be a map from a blueprint resource name to a folder, got a list"},
		{name: "a string", pm: chartsConfig, config: "charts: ./charts\n",
			err: "charts must be a map from a chart reference to a local chart folder or .tgz, got a string"},
		{name: "not a path", pm: chartsConfig, config: "charts:\n  app: 3\n",
			err: `config conf/lscli.yaml: charts["app"] must be a local chart folder or .tgz (a string), got 3`},
		{name: "a folder YAML reads as a boolean", pm: componentsConfig, config: "components:\n  registry.example/c: n\n",
			err: `config conf/lscli.yaml: components["registry.example/c"] must be a local folder or file (a string), got false (YAML reads an unquoted y, n, yes, no, on or off as a boolean: quote the path)`},
		{name: "not yaml", pm: blueprintsConfig, config: "blueprints: [\n", err: "read config conf/lscli.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePathMap(t, tt.pm, tt.config)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || exitCode(err) != action.ExitInvalid {
					t.Fatalf("err = %v (exit %d), want %q", err, exitCode(err), tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("[%q] = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// parsePathMap reads the map pm of a config file conf/lscli.yaml with
// content config.
func parsePathMap(t *testing.T, pm pathMap, config string) (map[string]string, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "conf", "lscli.yaml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	cfg, err := readConfigFile(filepath.Join("conf", "lscli.yaml"))
	if err != nil {
		return nil, err
	}
	paths, _, err := pm.read(&settings{config: cfg})
	return paths, err
}
