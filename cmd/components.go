package cmd

import (
	"path/filepath"

	"github.com/lscli/lscli/landscaper/components"
)

// componentsConfig is the map in the config file from component versions
// Landscaper would read from a registry to the local folders or files that
// hold them (component archives, CTFs, constructor or descriptor files, or
// folders of them):
//
//	components:
//	  europe-docker.pkg.dev/acme/components: ../components   # an OCI repository (and below)
//	  github.com/acme/app: ../app/component-constructor.yaml   # a component
//	  github.com/acme/db:1.2.0: archives/db-1.2.0.tgz          # a component version
var componentsConfig = pathMap{key: "components", from: "a repository or component", to: "a local folder or file"}

// artifactsConfig is the map in the config file from resources Landscaper
// would download (an ociArtifact's imageReference, ...) to local files or
// folders.
var artifactsConfig = pathMap{key: "artifacts", from: "a resource's access reference", to: "a local file or folder"}

// localRegistryRootKey is the config key of Landscaper's
// registry.local.rootPath, relative to the config file.
const localRegistryRootKey = "local-registry-root"

// componentsSettings returns where component versions are found, from the
// config file.
func componentsSettings(s *settings, charts map[string]string) (components.Config, error) {
	cfg := components.Config{Charts: charts}
	var err error
	if cfg.Components, _, err = componentsConfig.read(s); err != nil {
		return cfg, err
	}
	if cfg.Artifacts, _, err = artifactsConfig.read(s); err != nil {
		return cfg, err
	}
	if s.config == nil {
		return cfg, nil
	}
	cfg.File = filepath.ToSlash(s.config.path)
	if root, _ := s.config.setting(localRegistryRootKey); root != "" {
		if !filepath.IsAbs(root) {
			root = filepath.Join(filepath.Dir(s.config.path), root)
		}
		cfg.LocalRoot = root
	}
	return cfg, nil
}
