package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

// gardenerConfig is the config file's gardener: key. It stands in for the
// Gardener garden cluster that Landscaper asks for
// onDelete.skipUninstallIfClusterRemoved:
//
//	gardener:
//	  removedShoots: [garden-project/shoot1]   # <namespace>/<name>; all others exist
type gardenerConfig struct {
	RemovedShoots []string `json:"removedShoots"`
}

// removedShoots returns the shoots the config file says are gone, as
// "<namespace>/<name>". A malformed entry is invalid input (exit 2).
func removedShoots(s *settings) ([]string, error) {
	if s.config == nil || s.config.ConfigFileUsed() == "" {
		return nil, nil
	}
	path := s.config.ConfigFileUsed()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	var doc struct {
		Gardener *json.RawMessage `json:"gardener"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil || doc.Gardener == nil {
		return nil, nil // a broken file is reported where the deployer keys are read
	}
	var cfg gardenerConfig
	if err := yaml.UnmarshalStrict(*doc.Gardener, &cfg); err != nil {
		return nil, invalidf("config %s: gardener: %v", path, err)
	}
	for _, shoot := range cfg.RemovedShoots {
		if ns, name, ok := strings.Cut(shoot, "/"); !ok || ns == "" || name == "" || strings.Contains(name, "/") {
			return nil, invalidf("config %s: gardener.removedShoots: %q is not <namespace>/<name>", path, shoot)
		}
	}
	return cfg.RemovedShoots, nil
}
