package cmd

import (
	"path/filepath"

	"github.com/lscli/lscli/internal/safefs"
	"github.com/lscli/lscli/landscaper/blueprint"
)

// blueprintsConfig is the map in the config file from blueprint references
// to local folders:
//
//	blueprints:
//	  echo-blueprint: ./blueprints/echo                   # by resource name
//	  github.com/acme/app/blueprint: ../app/blueprint     # by <component name>/<resource name>
//
// Without it, only inline blueprints are found.
var blueprintsConfig = pathMap{key: "blueprints", from: "a blueprint resource name", to: "a folder"}

// blueprintResolver returns the resolver for spec.blueprint.ref from the
// blueprints map of the config file, or nil when there is none.
// The folders are read through reads (see package safefs).
func blueprintResolver(s *settings, reads *safefs.Policy) (blueprint.Resolver, error) {
	paths, path, err := blueprintsConfig.read(s)
	if paths == nil || err != nil {
		return nil, err
	}
	return &blueprint.Folders{Paths: paths, Origin: filepath.ToSlash(path), Policy: reads}, nil
}
