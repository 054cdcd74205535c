package cmd

import (
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// chartsKey is the config file key that maps the helm charts Landscaper
// would download to local chart folders or .tgz files.
const chartsKey = "charts"

// chartMap returns the helm deployer's chart mapping from the charts map of
// the config file:
//
//	charts:
//	  registry.example/charts/app: charts/app           # chart.ref, with or without its tag
//	  https://charts.example/app-1.0.0.tgz: app.tgz     # chart.archive.remote.url
//	  https://charts.example/app:1.0.0: ../charts/app   # helmChartRepo: <url>/<name>:<version>
//
// Paths are relative to the config file. The map is read from the file
// itself, not through viper, which would lower-case keys and split them at
// dots. Without a config file or a charts map, the result is nil: only
// archive.raw and local paths in chart.ref are found. A malformed map is
// invalid input (exit 2).
func chartMap(s *settings) (map[string]string, error) {
	if s.config == nil || s.config.ConfigFileUsed() == "" {
		return nil, nil
	}
	path := s.config.ConfigFileUsed()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	return parseCharts(data, path)
}

// parseCharts reads the charts map of the config file at path.
func parseCharts(data []byte, path string) (map[string]string, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, invalidf("read config %s: %v", path, err)
	}
	raw, ok := doc[chartsKey]
	if !ok || raw == nil {
		return nil, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, invalidf("config %s: %s must be a map from a chart reference to a local chart folder or .tgz, got %s", path, chartsKey, yamlKind(raw))
	}
	dir := filepath.Dir(path)
	paths := make(map[string]string, len(m))
	for k, v := range m {
		p, ok := v.(string)
		if !ok || p == "" {
			return nil, invalidf("config %s: %s[%q] must be a chart folder or .tgz (a string), got %v", path, chartsKey, k, v)
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		paths[k] = p
	}
	return paths, nil
}

// yamlKind names the kind of a decoded YAML value for messages.
func yamlKind(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, int64, int:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
