package cmd

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
)

// pathMap describes a map in the config file from references (blueprint
// resource names, chart references) to local paths, relative to the file.
type pathMap struct {
	// key is the top-level key of the map in the config file.
	key string
	// from and to say what the keys and the values are, for messages.
	from, to string
}

// read returns the map of the config file of s, with paths made relative to
// the working directory, and the config file's path. Keys keep their case
// and dots. Without a config file or without the map, it returns nil. A
// malformed map is invalid input (exit 2).
func (pm pathMap) read(s *settings) (map[string]string, string, error) {
	if s.config == nil {
		return nil, "", nil
	}
	path := s.config.path
	paths, err := pm.parse(s.config.section(pm.key), path)
	return paths, path, err
}

// paths returns the paths of the map, the local folders and files it
// names.
func (pm pathMap) paths(s *settings) ([]string, error) {
	m, _, err := pm.read(s)
	return slices.Collect(maps.Values(m)), err
}

// parse reads the map from raw, the section of the config file at path.
func (pm pathMap) parse(raw json.RawMessage, path string) (map[string]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, invalidf("read config %s: %v", path, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalidf("config %s: %s must be a map from %s to %s, got %s", path, pm.key, pm.from, pm.to, yamlKind(v))
	}
	dir := filepath.Dir(path)
	paths := make(map[string]string, len(m))
	for k, v := range m {
		p, ok := v.(string)
		if !ok || p == "" {
			why := ""
			if _, isBool := v.(bool); isBool {
				// yaml.v2 and sigs.k8s.io/yaml read YAML 1.1: a folder
				// named n or on is a boolean unless quoted.
				why = " (YAML reads an unquoted y, n, yes, no, on or off as a boolean: quote the path)"
			}
			return nil, invalidf("config %s: %s[%q] must be %s (a string), got %v%s", path, pm.key, k, pm.to, v, why)
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
	case map[string]any:
		return "a map"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, int64, int:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
