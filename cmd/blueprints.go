package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/engine/blueprint"
)

// blueprintsKey is the config file key that maps blueprint references to
// local folders.
const blueprintsKey = "blueprints"

// blueprintResolver returns the resolver for spec.blueprint.ref from the
// blueprints map of the config file:
//
//	blueprints:
//	  echo-blueprint: ./blueprints/echo                   # by resource name
//	  github.com/acme/app/blueprint: ../app/blueprint     # by <component name>/<resource name>
//
// Folders are relative to the config file. The map is read from the file
// itself, not through viper, which would lower-case keys and split them at
// dots. Without a config file or a blueprints map, the result is nil: only
// inline blueprints are found. A malformed map is invalid input (exit 2).
func blueprintResolver(s *settings) (blueprint.Resolver, error) {
	if s.config == nil || s.config.ConfigFileUsed() == "" {
		return nil, nil
	}
	path := s.config.ConfigFileUsed()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	return parseBlueprints(data, path)
}

// parseBlueprints reads the blueprints map of the config file at path.
func parseBlueprints(data []byte, path string) (blueprint.Resolver, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, invalidf("read config %s: %v", path, err)
	}
	raw, ok := doc[blueprintsKey]
	if !ok || raw == nil {
		return nil, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, invalidf("config %s: %s must be a map from a blueprint resource name to a folder, got %T", path, blueprintsKey, raw)
	}
	dir := filepath.Dir(path)
	paths := make(map[string]string, len(m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		folder, ok := m[k].(string)
		if !ok || folder == "" {
			return nil, invalidf("config %s: %s[%q] must be a folder (a string), got %v", path, blueprintsKey, k, m[k])
		}
		if !filepath.IsAbs(folder) {
			folder = filepath.Join(dir, filepath.FromSlash(folder))
		}
		paths[k] = folder
	}
	return &blueprint.Folders{Paths: paths, Origin: filepath.ToSlash(path)}, nil
}
