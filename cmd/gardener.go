package cmd

import (
	"bytes"
	"encoding/json"
	"strings"
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
// "<namespace>/<name>". A malformed section is invalid input (exit 2).
func removedShoots(s *settings) ([]string, error) {
	raw := s.config.section("gardener")
	if len(raw) == 0 {
		return nil, nil
	}
	var cfg gardenerConfig
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, invalidf("config %s: gardener: %s", s.config.path, jsonMessage(err))
	}
	for _, shoot := range cfg.RemovedShoots {
		if ns, name, ok := strings.Cut(shoot, "/"); !ok || ns == "" || name == "" || strings.Contains(name, "/") {
			return nil, invalidf("config %s: gardener.removedShoots: %q is not <namespace>/<name>", s.config.path, shoot)
		}
	}
	return cfg.RemovedShoots, nil
}
