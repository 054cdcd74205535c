package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseCharts(t *testing.T) {
	tests := []struct {
		name, config string
		want         map[string]string
		err          string
	}{
		{name: "none", config: "seed: 2\n"},
		{name: "relative to the config file, keys keep case, dots and colons",
			config: "charts:\n  Registry.example/charts/App: charts/app\n  https://charts.example/app:1.0.0: /abs/app.tgz\n",
			want: map[string]string{"Registry.example/charts/App": filepath.Join("conf", "charts", "app"),
				"https://charts.example/app:1.0.0": "/abs/app.tgz"}},
		{name: "not a map", config: "charts: [a]\n", err: "config conf/lscli.yaml: charts must be a map from a chart reference to a local chart folder or .tgz, got a list"},
		{name: "a string", config: "charts: ./charts\n", err: "charts must be a map from a chart reference to a local chart folder or .tgz, got a string"},
		{name: "not a path", config: "charts:\n  app: 3\n", err: `config conf/lscli.yaml: charts["app"] must be a chart folder or .tgz (a string), got 3`},
		{name: "not yaml", config: "charts: [\n", err: "read config conf/lscli.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseCharts([]byte(tt.config), filepath.Join("conf", "lscli.yaml"))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || exitCode(err) != ExitInvalid {
					t.Fatalf("err = %v (exit %d), want %q", err, exitCode(err), tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("charts = %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("charts[%q] = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}
